import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@careloop/shared-contracts';
import { accessFor } from '../../access';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { REMINDER_CANCELLED } from './messages';

/**
 * E-mail reminders (SPEC §3 "Reminder", §5, §7), doctors only:
 *   POST   /doctor/reminder          schedule; `to` must be an ASSIGNED patient's e-mail (no open relay),
 *                                     at most REMINDERS_PER_DOCTOR_PER_HOUR created per hour (429 beyond)
 *   GET    /doctor/reminders         the doctor's own, newest first
 *   DELETE /doctor/reminders/{id}    cancel (own only; anyone else's answers 404)
 * Each goes through the access layer (src/access), audited with the patient the reminder concerns.
 * Delivery is the runner's job (access/reminder-runner.ts, started by boss.ts from server.ts).
 */
export function reminderRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, deps, ENDPOINTS.scheduleReminder, async (request, reply) => {
      const reminder = await accessFor(deps, request).createReminder(request.body, {
        perDoctorPerHour: deps.config.reminders.perDoctorPerHour,
      });
      reply.code(201);
      return reminder;
    });

    route(app, deps, ENDPOINTS.listReminders, async (request) => {
      return accessFor(deps, request).listReminders();
    });

    route(app, deps, ENDPOINTS.cancelReminder, async (request) => {
      await accessFor(deps, request).cancelReminder(request.params.id);
      return { message: REMINDER_CANCELLED };
    });
  };
}
