import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MessageResponse, Reminder, ReminderCreate, ReminderIdParams, ReminderList } from 'shared-contracts';
import type { AppDeps } from '../../app';
import { HttpError } from '../../lib/errors';
import { requireAnyRole, sessionOf } from '../auth/guard';
import { isAssigned } from '../connections/assignments';
import { NOT_YOUR_PATIENT, REMINDER_CANCELLED, REMINDER_NOT_FOUND } from './messages';
import { cancelReminder, findPatientIdByEmail, insertReminder, remindersOf, toReminder } from './store';

/**
 * E-mail reminders (SPEC §3 "Reminder", §5, §7), doctors only:
 *   POST   /doctor/reminder          schedule; `to` must be an ASSIGNED patient's e-mail (no open relay)
 *   GET    /doctor/reminders         the doctor's own, newest first
 *   DELETE /doctor/reminders/{id}    cancel (own only; anyone else's answers 404)
 * Delivery is the runner's job (runner.ts, started by server.ts).
 */
export function reminderRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock } = deps;
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
        const doctorId = sessionOf(request).accountId;
        const body = request.body;
        const patient = await findPatientIdByEmail(db.db, body.to);
        // The same answer for an unknown address and a patient of someone else's: no account probing.
        if (!patient || !(await isAssigned(db.db, doctorId, patient.id))) throw new HttpError(403, NOT_YOUR_PATIENT);
        const startAt = new Date(body.startDate);
        const row = await insertReminder(db.db, {
          doctorId,
          patientId: patient.id,
          toEmail: body.to,
          subject: body.subject,
          text: body.text,
          startAt,
          intervalDays: body.intervalDays,
          status: 'scheduled',
          nextRunAt: startAt,
          createdAt: clock.now(),
        });
        reply.code(201);
        return toReminder(row, patient.name);
      },
    );

    app.get(
      '/doctor/reminders',
      {
        onRequest: doctorOnly,
        schema: { ...common, summary: "The doctor's reminders, newest first", response: { 200: ReminderList, ...denied } },
      },
      async (request) => {
        const rows = await remindersOf(db.db, sessionOf(request).accountId);
        return rows.map((r) => toReminder(r.reminder, r.patientName));
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
        if (!(await cancelReminder(db.db, sessionOf(request).accountId, request.params.id))) {
          throw new HttpError(404, REMINDER_NOT_FOUND);
        }
        return { message: REMINDER_CANCELLED };
      },
    );
  };
}
