import { and, desc, eq, gt, lte, min, sql } from 'drizzle-orm';
import { REMINDER_DELIVERIES_SHOWN, type Reminder, type ReminderDelivery } from '@careloop/shared-contracts';
import { selectRows, type Queryable } from '../adapters/db';
import { assignments, DELIVERY_STATUSES, doctors, patients, reminderDeliveries, reminders } from '../db/schema';

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

/**
 * The doctor's reminders, newest first. While the patient is assigned to the doctor: their current
 * name and e-mail (where the reminders go); once the access has ended, only the name the reminder
 * was scheduled with (`assigned` false): the doctor learns nothing the patient has changed since.
 */
export async function remindersOf(
  db: Queryable,
  doctorId: string,
): Promise<{ reminder: ReminderRow; patientName: string; patientEmail: string; assigned: boolean }[]> {
  return db
    .select({
      reminder: reminders,
      patientName: patients.name,
      patientEmail: patients.email,
      assigned: sql<boolean>`${assignments.doctorId} is not null`,
    })
    .from(reminders)
    .innerJoin(patients, eq(patients.id, reminders.patientId))
    .leftJoin(assignments, and(eq(assignments.doctorId, reminders.doctorId), eq(assignments.patientId, reminders.patientId)))
    .where(eq(reminders.doctorId, doctorId))
    .orderBy(desc(reminders.createdAt), desc(reminders.id));
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

/** A reminder's latest occurrences (newest first, at most REMINDER_DELIVERIES_SHOWN) and how many it has. */
export interface DeliveriesOfReminder {
  latest: ReminderDelivery[];
  count: number;
}

/** The latest deliveries of each of these reminders, in one query. */
export async function latestDeliveriesOf(db: Queryable, reminderIds: string[]): Promise<Map<string, DeliveriesOfReminder>> {
  const byReminder = new Map<string, DeliveriesOfReminder>();
  if (reminderIds.length === 0) return byReminder;
  const rows = await selectRows<{
    reminder_id: string;
    occurrence_at: string | Date;
    status: (typeof DELIVERY_STATUSES)[number];
    last_error: string | null;
    next_attempt_at: string | Date | null;
    sent_at: string | Date | null;
    attempts: number;
    total: number | string;
  }>(
    db,
    sql`select reminder_id, occurrence_at, status, last_error, next_attempt_at, sent_at, attempts, total
          from (select d.*,
                       row_number() over (partition by d.reminder_id order by d.occurrence_at desc) as rank,
                       count(*) over (partition by d.reminder_id) as total
                  from ${reminderDeliveries} d
                 where d.reminder_id in (${sql.join(
                   reminderIds.map((id) => sql`${id}::uuid`),
                   sql`, `,
                 )})) ranked
         where rank <= ${REMINDER_DELIVERIES_SHOWN}
         order by reminder_id, occurrence_at desc`,
  );
  for (const r of rows) {
    let entry = byReminder.get(r.reminder_id);
    if (!entry) byReminder.set(r.reminder_id, (entry = { latest: [], count: Number(r.total) }));
    entry.latest.push({
      occurrenceAt: iso(r.occurrence_at)!,
      state: DELIVERY_STATE[r.status],
      error: r.status === 'failed' || r.status === 'unknown' ? r.last_error : null,
      nextAttemptAt: r.status === 'failed' ? iso(r.next_attempt_at) : null,
      sentAt: r.status === 'sent' ? iso(r.sent_at) : null,
      attempts: Number(r.attempts),
    });
  }
  return byReminder;
}

/** The row's status as the doctor sees it: a claimed row is still to be sent. */
const DELIVERY_STATE: Record<(typeof DELIVERY_STATUSES)[number], ReminderDelivery['state']> = {
  claimed: 'scheduled',
  sending: 'sending',
  sent: 'sent',
  failed: 'failed',
  unknown: 'unknown',
};

function iso(value: string | Date | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** Once the doctor's access has ended: no current detail of the patient, the name as scheduled. */
export const FORMER_PATIENT = 'Former patient';

export function toReminder(
  row: ReminderRow,
  patient: { name: string; email: string } | 'access ended',
  deliveries: DeliveriesOfReminder = { latest: [], count: 0 },
): Reminder {
  const ended = patient === 'access ended';
  return {
    _id: row.id,
    to: ended ? '' : patient.email,
    patientName: ended ? (row.patientName ?? FORMER_PATIENT) : patient.name,
    accessEnded: ended,
    subject: row.subject,
    text: row.text,
    startDate: row.startAt.toISOString(),
    intervalDays: row.intervalDays,
    status: row.status,
    nextRunAt: row.nextRunAt ? row.nextRunAt.toISOString() : null,
    lastSentAt: row.lastSentAt ? row.lastSentAt.toISOString() : null,
    sentCount: row.sentCount,
    deliveries: deliveries.latest,
    deliveryCount: deliveries.count,
  };
}

/**
 * How far behind the reminder runner is (seconds): the age of the oldest scheduled occurrence
 * already due, 0 when none is. A count for the operator's metrics: nothing of a patient.
 */
export async function reminderLagSeconds(db: Queryable, now: Date): Promise<number> {
  const [row] = await db
    .select({ oldest: min(reminders.nextRunAt) })
    .from(reminders)
    .where(and(eq(reminders.status, 'scheduled'), lte(reminders.nextRunAt, now)));
  return row?.oldest ? Math.max(0, (now.getTime() - new Date(row.oldest).getTime()) / 1000) : 0;
}
