import { and, eq, isNotNull, lte } from 'drizzle-orm';
import type { Queryable } from '../adapters/db';
import { latestOccurrence, nextOccurrence } from './reminder-schedule';
import { reminderDeliveries, reminders } from '../db/schema';

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
): Promise<{ moved: number; completed: number }> {
  const due = await db
    .select({ id: reminders.id, startAt: reminders.startAt, intervalDays: reminders.intervalDays })
    .from(reminders)
    .where(and(eq(reminders.status, 'scheduled'), isNotNull(reminders.nextRunAt), lte(reminders.nextRunAt, restoredAt)));
  let moved = 0;
  let completed = 0;
  for (const r of due) {
    const next = nextOccurrence(latestOccurrence(r.startAt, r.intervalDays, restoredAt), r.intervalDays);
    if (next) {
      await db.update(reminders).set({ nextRunAt: next }).where(eq(reminders.id, r.id));
      moved++;
    } else {
      await db.update(reminders).set({ nextRunAt: null, status: 'completed' }).where(eq(reminders.id, r.id));
      completed++;
    }
  }
  return { moved, completed };
}

/**
 * Failed sends waiting for a retry in the backup may have gone out since (the lost installation
 * kept retrying): they are given up rather than risk a second mail. Returns how many.
 */
export async function stopRetriesAfterRestore(db: Queryable): Promise<number> {
  const rows = await db
    .update(reminderDeliveries)
    .set({ nextAttemptAt: null, lastError: 'not retried after a restore from backup' })
    .where(and(eq(reminderDeliveries.status, 'failed'), isNotNull(reminderDeliveries.nextAttemptAt)))
    .returning({ id: reminderDeliveries.id });
  return rows.length;
}
