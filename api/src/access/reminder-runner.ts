import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../adapters/db';
import { selectRows } from '../adapters/db';
import type { Mailer } from '../adapters/mail';
import { doctors, patients, reminderDeliveries, reminders } from '../db/schema';
import { latestOccurrence, nextOccurrence, retryDelayMs } from './reminder-schedule';

/*
 * Sends the reminders that are due. Safe to run from any number of processes at once:
 *
 *  - a new occurrence is CLAIMED by inserting its reminder_deliveries row (UNIQUE reminder_id,
 *    occurrence_at) in the same transaction that moves the reminder's next_run_at on; the e-mail
 *    goes out only after that commit, and only by the process whose INSERT succeeded;
 *  - a failed send is claimed for a retry by a conditional UPDATE failed → sending, which one
 *    process only can win;
 *  - a row is marked 'sent' only after the mailer accepted the message; a send that throws is
 *    'failed' with its error and retried later (1 min, 2, 4 … ≤ 1 h) up to REMINDER_MAX_ATTEMPTS.
 *
 * So every occurrence is sent AT MOST ONCE. (A process dying between the claim and the mailer's
 * answer leaves a 'sending' row that is never retried: whether that mail left is unknown, and
 * a reminder sent twice is worse than one missed. Such rows are visible in the table.)
 *
 * Catch-up: a reminder whose next_run_at passed while no runner ran sends ONE e-mail, for the
 * most recent missed occurrence, and next_run_at moves past now: a patient back from a week's
 * outage of a daily reminder gets one message, not seven.
 */

export interface RunnerContext {
  db: Db;
  mailer: Mailer;
  maxAttempts: number;
  /** The clinic's IANA time zone: repeating reminders keep their local time in it (reminder-schedule.ts). */
  timeZone: string;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface RunResult {
  /** occurrences (or retries) claimed by this call */
  claimed: number;
  sent: number;
  failed: number;
}

const BATCH = 50;
const MAX_ERROR_LENGTH = 1000;

interface Claim {
  deliveryId: string;
  reminderId: string;
  attempts: number;
}

export async function runDueReminders(ctx: RunnerContext, now: Date): Promise<RunResult> {
  const claims = [...(await claimNewOccurrences(ctx.db, now, ctx.timeZone)), ...(await claimRetries(ctx.db, now))];
  const result: RunResult = { claimed: claims.length, sent: 0, failed: 0 };
  for (const claim of claims) {
    if (await deliver(ctx, claim, now)) result.sent += 1;
    else result.failed += 1;
  }
  return result;
}

/** Due reminders → one 'sending' delivery row each, next_run_at moved past now, in one transaction. */
async function claimNewOccurrences(db: Db, now: Date, timeZone: string): Promise<Claim[]> {
  return db.transaction(async (tx) => {
    // SKIP LOCKED: two runners share the due reminders instead of queueing on each other's rows.
    const due = await tx
      .select({
        id: reminders.id,
        startAt: reminders.startAt,
        intervalDays: reminders.intervalDays,
        nextRunAt: reminders.nextRunAt,
      })
      .from(reminders)
      .where(and(eq(reminders.status, 'scheduled'), lte(reminders.nextRunAt, now)))
      .orderBy(asc(reminders.nextRunAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const claims: Claim[] = [];
    for (const r of due) {
      let occurrence = latestOccurrence(r.startAt, r.intervalDays, now, timeZone);
      if (r.nextRunAt && occurrence < r.nextRunAt) occurrence = r.nextRunAt;
      const next = nextOccurrence(r.startAt, r.intervalDays, occurrence, timeZone);
      const [inserted] = await tx
        .insert(reminderDeliveries)
        .values({ reminderId: r.id, occurrenceAt: occurrence, status: 'sending', attempts: 1, claimedAt: now })
        .onConflictDoNothing({ target: [reminderDeliveries.reminderId, reminderDeliveries.occurrenceAt] })
        .returning({ id: reminderDeliveries.id });
      await tx
        .update(reminders)
        .set(next ? { nextRunAt: next } : { nextRunAt: null, status: 'completed' })
        .where(eq(reminders.id, r.id));
      if (inserted) claims.push({ deliveryId: inserted.id, reminderId: r.id, attempts: 1 });
    }
    return claims;
  });
}

/** Failed sends whose backoff has passed, of reminders not cancelled: failed → sending, attempts + 1. */
async function claimRetries(db: Db, now: Date): Promise<Claim[]> {
  const at = now.toISOString();
  const rows = await selectRows<{ id: string; reminder_id: string; attempts: number }>(
    db,
    sql`
      update ${reminderDeliveries} d
         set status = 'sending', attempts = d.attempts + 1, claimed_at = ${at}::timestamptz, next_attempt_at = null
       where d.id in (
               select f.id
                 from ${reminderDeliveries} f
                 join ${reminders} r on r.id = f.reminder_id
                where f.status = 'failed' and f.next_attempt_at <= ${at}::timestamptz and r.status <> 'cancelled'
                order by f.next_attempt_at
                limit ${BATCH}
                  for update of f skip locked)
         and d.status = 'failed'
      returning d.id, d.reminder_id, d.attempts`,
  );
  return rows.map((r) => ({ deliveryId: r.id, reminderId: r.reminder_id, attempts: Number(r.attempts) }));
}

async function deliver(ctx: RunnerContext, claim: Claim, now: Date): Promise<boolean> {
  const { db } = ctx;
  const [r] = await db
    .select({
      // The patient's current address, not one stored at scheduling: reminders follow an e-mail change.
      toEmail: patients.email,
      toEmailVerifiedAt: patients.emailVerifiedAt,
      subject: reminders.subject,
      text: reminders.text,
      doctorName: doctors.name,
      doctorEmail: doctors.email,
    })
    .from(reminders)
    .innerJoin(doctors, eq(doctors.id, reminders.doctorId))
    .innerJoin(patients, eq(patients.id, reminders.patientId))
    .where(eq(reminders.id, claim.reminderId));
  try {
    if (!r) throw new Error('reminder not found');
    if (!r.toEmailVerifiedAt) throw new UnverifiedAddress();
    await ctx.mailer.send({ to: r.toEmail, subject: r.subject, text: reminderBody(r.text, r.doctorName, r.doctorEmail) });
  } catch (err) {
    // An unproven address is never written to: no retry would change that (issue 11).
    const giveUp = claim.attempts >= ctx.maxAttempts || err instanceof UnverifiedAddress;
    await db
      .update(reminderDeliveries)
      .set({
        status: 'failed',
        lastError: errorText(err),
        nextAttemptAt: giveUp ? null : new Date(now.getTime() + retryDelayMs(claim.attempts)),
      })
      .where(eq(reminderDeliveries.id, claim.deliveryId));
    ctx.log?.warn(
      { err, reminderId: claim.reminderId, deliveryId: claim.deliveryId, attempts: claim.attempts, givenUp: giveUp },
      giveUp ? 'reminder e-mail failed; giving up' : 'reminder e-mail failed; will retry',
    );
    return false;
  }
  await db.transaction(async (tx) => {
    await tx
      .update(reminderDeliveries)
      .set({ status: 'sent', sentAt: now, nextAttemptAt: null })
      .where(eq(reminderDeliveries.id, claim.deliveryId));
    await tx
      .update(reminders)
      .set({ lastSentAt: now, sentCount: sql`${reminders.sentCount} + 1` })
      .where(eq(reminders.id, claim.reminderId));
  });
  return true;
}

/** The patient's current e-mail was never verified: the occurrence is given up, not retried. */
class UnverifiedAddress extends Error {
  constructor() {
    super("the patient's e-mail address is not verified");
    this.name = 'UnverifiedAddress';
  }
}

/** The reminder's text and a footer naming the doctor who scheduled it. */
export function reminderBody(text: string, doctorName: string, doctorEmail: string): string {
  return `${text}\n\n--\nThis reminder was scheduled by ${doctorName} (${doctorEmail}) through CareLoop.\n`;
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/** Delivery rows of some reminders (tests, diagnostics). */
export async function deliveriesOf(db: Db, reminderIds: string[]) {
  if (reminderIds.length === 0) return [];
  return db
    .select()
    .from(reminderDeliveries)
    .where(inArray(reminderDeliveries.reminderId, reminderIds))
    .orderBy(asc(reminderDeliveries.occurrenceAt));
}
