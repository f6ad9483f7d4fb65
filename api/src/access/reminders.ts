import { and, desc, eq } from 'drizzle-orm';
import type { Reminder } from 'shared-contracts';
import type { Queryable } from '../adapters/db';
import { patients, reminders } from '../db/schema';

export type ReminderRow = typeof reminders.$inferSelect;

export async function findPatientIdByEmail(db: Queryable, email: string): Promise<{ id: string; name: string } | undefined> {
  const [row] = await db
    .select({ id: patients.id, name: patients.name })
    .from(patients)
    .where(eq(patients.email, email))
    .limit(1);
  return row;
}

export async function insertReminder(db: Queryable, values: typeof reminders.$inferInsert): Promise<ReminderRow> {
  const [row] = await db.insert(reminders).values(values).returning();
  return row;
}

/** The doctor's reminders, newest first, with the patient's name. */
export async function remindersOf(db: Queryable, doctorId: string): Promise<{ reminder: ReminderRow; patientName: string }[]> {
  return db
    .select({ reminder: reminders, patientName: patients.name })
    .from(reminders)
    .innerJoin(patients, eq(patients.id, reminders.patientId))
    .where(eq(reminders.doctorId, doctorId))
    .orderBy(desc(reminders.createdAt), desc(reminders.id))
    .limit(500);
}

/** Cancels the doctor's own reminder: nothing more is sent, retries included. Undefined if not theirs. */
export async function cancelReminder(db: Queryable, doctorId: string, id: string): Promise<{ patientId: string } | undefined> {
  const [row] = await db
    .update(reminders)
    .set({ status: 'cancelled', nextRunAt: null })
    .where(and(eq(reminders.id, id), eq(reminders.doctorId, doctorId)))
    .returning({ patientId: reminders.patientId });
  return row;
}

export function toReminder(row: ReminderRow, patientName: string): Reminder {
  return {
    _id: row.id,
    to: row.toEmail,
    patientName,
    subject: row.subject,
    text: row.text,
    startDate: row.startAt.toISOString(),
    intervalDays: row.intervalDays,
    status: row.status,
    nextRunAt: row.nextRunAt ? row.nextRunAt.toISOString() : null,
    lastSentAt: row.lastSentAt ? row.lastSentAt.toISOString() : null,
    sentCount: row.sentCount,
  };
}
