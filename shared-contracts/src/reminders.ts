import { z } from 'zod';
import { REMINDER_DELIVERIES_SHOWN, REMINDER_DELIVERY_STATES, REMINDER_STATUSES } from './constants';
import { Email, EntityId, RequiredText } from './common';
import { MIN_REMINDER_INTERVAL_DAYS } from './constants';

/** POST /doctor/reminder (SPEC §3, §5): every field required, interval at least 0 days. */
export const ReminderCreate = z.strictObject({
  to: Email,
  subject: RequiredText(200),
  text: RequiredText(10000),
  /** ISO 8601 date-time with an offset, e.g. 2026-11-21T09:00:00.000Z */
  // The messages are the form's too: written for the doctor, not for a developer.
  startDate: z.iso.datetime({ offset: true, error: 'Choose a start date and time' }),
  /** 0: once at startDate; n: every n days from startDate */
  intervalDays: z.coerce
    .number({ error: 'Enter how many days between reminders (0 = once)' })
    .int({ error: 'Enter a whole number of days' })
    .min(MIN_REMINDER_INTERVAL_DAYS, { error: `Repeat every ${MIN_REMINDER_INTERVAL_DAYS} days or more (0 = once)` })
    .max(365, { error: 'Repeat at most every 365 days' }),
});
export type ReminderCreate = z.input<typeof ReminderCreate>;

/** One occurrence of a reminder and what became of it. */
export const ReminderDelivery = z.object({
  occurrenceAt: z.string(),
  state: z.enum(REMINDER_DELIVERY_STATES),
  /** 'failed': the mail server's (or the runner's) reason; 'unknown': why the outcome is not known */
  error: z.string().nullable(),
  /** 'failed' with a retry pending: when it is tried again; null once given up */
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** times it was handed to the mail server (or given up before that) */
  attempts: z.number().int(),
});
export type ReminderDelivery = z.infer<typeof ReminderDelivery>;

export const Reminder = z.object({
  _id: EntityId,
  /** the patient's current e-mail; '' once the doctor's access has ended (accessEnded) */
  to: z.string(),
  /** the patient's current name; once access has ended, the name the reminder was scheduled with */
  patientName: z.string(),
  /** the patient ended the doctor's access: the reminder is cancelled and shows nothing current of them */
  accessEnded: z.boolean(),
  subject: z.string(),
  text: z.string(),
  startDate: z.string(),
  intervalDays: z.number().int(),
  status: z.enum(REMINDER_STATUSES),
  /** the next occurrence, null once completed or cancelled */
  nextRunAt: z.string().nullable(),
  lastSentAt: z.string().nullable(),
  sentCount: z.number().int(),
  /** the latest occurrences, newest first (at most REMINDER_DELIVERIES_SHOWN) */
  deliveries: z.array(ReminderDelivery).max(REMINDER_DELIVERIES_SHOWN),
  /** all its occurrences so far: more than `deliveries.length` means older ones are not listed */
  deliveryCount: z.number().int(),
});
export type Reminder = z.infer<typeof Reminder>;
export const ReminderList = z.array(Reminder);
export const ReminderIdParams = z.strictObject({ id: EntityId });
