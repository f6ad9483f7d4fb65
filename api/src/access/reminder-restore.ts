import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Queryable } from '../adapters/db';
import { settleReminder } from './reminder-runner';
import { latestOccurrence, nextOccurrence } from './reminder-schedule';
import { reminderDeliveries, reminders } from '../db/schema';

const RESTORED_DOUBT =
  'restored from a backup taken while this e-mail was claimed or being sent: it may have gone out since, so it is not sent again';

/**
 * After a restore the database is older than the world: occurrences due between the backup and
 * the restore were most likely mailed already (by the lost installation). Each scheduled reminder
 * whose next occurrence is not in the future moves to its first occurrence after `restoredAt`; a
 * one-off one whose moment has passed is completed. Nothing already due is sent again.
 * Returns how many reminders were moved and how many completed.
 */
export async function skipPastReminderOccurrences(
  db: Queryable,
  restoredAt: Date,
  /** the clinic's zone (CLINIC_TIME_ZONE): occurrences keep their local time in it */
  timeZone: string,
): Promise<{ moved: number; completed: number }> {
  const due = await db
    .select({ id: reminders.id, startAt: reminders.startAt, intervalDays: reminders.intervalDays })
    .from(reminders)
    .where(and(eq(reminders.status, 'scheduled'), isNotNull(reminders.nextRunAt), lte(reminders.nextRunAt, restoredAt)));
  let moved = 0;
  let completed = 0;
  for (const r of due) {
    const latest = latestOccurrence(r.startAt, r.intervalDays, restoredAt, timeZone);
    const next = nextOccurrence(r.startAt, r.intervalDays, latest, timeZone);
    if (next) {
      await db.update(reminders).set({ nextRunAt: next }).where(eq(reminders.id, r.id));
      moved++;
    } else {
      await db.update(reminders).set({ nextRunAt: null }).where(eq(reminders.id, r.id));
      await settleReminder(db, r.id); // completed unless one of its occurrences is still to be sent
      completed++;
    }
  }
  return { moved, completed };
}

/**
 * Sends in flight in the backup may have gone out since (the lost installation kept going): a
 * failed send waiting for a retry is given up, and an occurrence claimed or being sent is
 * `unknown` (shown to the doctor), rather than risk a second mail. Returns how many.
 */
export async function stopRetriesAfterRestore(db: Queryable): Promise<number> {
  const retries = await db
    .update(reminderDeliveries)
    .set({ nextAttemptAt: null, lastError: 'not retried after a restore from backup' })
    .where(and(eq(reminderDeliveries.status, 'failed'), isNotNull(reminderDeliveries.nextAttemptAt)))
    .returning({ reminderId: reminderDeliveries.reminderId });
  const inFlight = await db
    .update(reminderDeliveries)
    .set({ status: 'unknown', lastError: RESTORED_DOUBT, leaseUntil: null, leaseHolder: null })
    .where(inArray(reminderDeliveries.status, ['claimed', 'sending']))
    .returning({ reminderId: reminderDeliveries.reminderId });
  for (const reminderId of new Set([...retries, ...inFlight].map((r) => r.reminderId))) await settleReminder(db, reminderId);
  return retries.length + inFlight.length;
}
