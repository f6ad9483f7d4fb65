import { and, desc, eq, gt, min, sql } from 'drizzle-orm';
import type { Reminder } from 'shared-contracts';
import type { Queryable } from '../adapters/db';
import { doctors, patients, reminders } from '../db/schema';

export type ReminderRow = typeof reminders.$inferSelect;

export async function findPatientIdByEmail(
  db: Queryable,
  email: string,
): Promise<{ id: string; name: string; email: string; emailVerifiedAt: Date | null } | undefined> {
  const [row] = await db
    .select({ id: patients.id, name: patients.name, email: patients.email, emailVerifiedAt: patients.emailVerifiedAt })
    .from(patients)
    .where(eq(patients.email, email))
    .limit(1);
  return row;
}

/** The window of the per-doctor creation limit. */
export const REMINDER_WINDOW_MS = 3_600_000;

/**
 * How many reminders the doctor created after `since`, and the oldest of them (when the next place
 * frees up). Locks the doctor's row first: call it in the transaction that inserts.
 */
export async function remindersCreatedSince(
  db: Queryable,
  doctorId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  await db.select({ id: doctors.id }).from(doctors).where(eq(doctors.id, doctorId)).for('update');
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number), oldest: min(reminders.createdAt) })
    .from(reminders)
    .where(and(eq(reminders.doctorId, doctorId), gt(reminders.createdAt, since)));
  return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
}

export async function insertReminder(db: Queryable, values: typeof reminders.$inferInsert): Promise<ReminderRow> {
  const [row] = await db.insert(reminders).values(values).returning();
  return row;
}

/** The doctor's reminders, newest first, with the patient's name and current e-mail (where they go). */
export async function remindersOf(
  db: Queryable,
  doctorId: string,
): Promise<{ reminder: ReminderRow; patientName: string; patientEmail: string }[]> {
  return db
    .select({ reminder: reminders, patientName: patients.name, patientEmail: patients.email })
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

export function toReminder(row: ReminderRow, patient: { name: string; email: string }): Reminder {
  return {
    _id: row.id,
    to: patient.email,
    patientName: patient.name,
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
