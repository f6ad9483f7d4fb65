import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MessageResponse, Reminder, ReminderCreate, ReminderIdParams, ReminderList } from 'shared-contracts';
import { accessFor } from '../../access';
import type { AppDeps } from '../../deps';
import { requireAnyRole } from '../auth/guard';
import { REMINDER_CANCELLED } from './messages';

/**
 * E-mail reminders (SPEC §3 "Reminder", §5, §7), doctors only:
 *   POST   /doctor/reminder          schedule; `to` must be an ASSIGNED patient's e-mail (no open relay)
 *   GET    /doctor/reminders         the doctor's own, newest first
 *   DELETE /doctor/reminders/{id}    cancel (own only; anyone else's answers 404)
 * Each goes through the access layer (src/access), audited with the patient the reminder concerns.
 * Delivery is the runner's job (access/reminder-runner.ts, started by boss.ts from server.ts).
 */
export function reminderRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const doctorOnly = requireAnyRole(deps, ['doctor']);
  const common = { tags: ['reminders'], security: [{ bearerAuth: [] }] };
  const denied = { 401: ErrorResponse, 403: ErrorResponse };

  return async (app) => {
    app.post(
      '/doctor/reminder',
      {
        onRequest: doctorOnly,
        schema: {
          ...common,
          summary: 'Schedule an e-mail to an assigned patient: once (intervalDays 0) or every n days from startDate',
          body: ReminderCreate,
          response: { 201: Reminder, 400: ErrorResponse, ...denied },
        },
      },
      async (request, reply) => {
        const reminder = await accessFor(deps, request).createReminder(request.body);
        reply.code(201);
        return reminder;
      },
    );

    app.get(
      '/doctor/reminders',
      {
        onRequest: doctorOnly,
        schema: { ...common, summary: "The doctor's reminders, newest first", response: { 200: ReminderList, ...denied } },
      },
      async (request) => {
        return accessFor(deps, request).listReminders();
      },
    );

    app.delete(
      '/doctor/reminders/:id',
      {
        onRequest: doctorOnly,
        schema: {
          ...common,
          summary: 'Cancel a reminder: nothing more is sent (retries of failed sends included)',
          params: ReminderIdParams,
          response: { 200: MessageResponse, 400: ErrorResponse, ...denied, 404: ErrorResponse },
        },
      },
      async (request) => {
        await accessFor(deps, request).cancelReminder(request.params.id);
        return { message: REMINDER_CANCELLED };
      },
    );
  };
}
