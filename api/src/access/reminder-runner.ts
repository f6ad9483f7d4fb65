import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Clock } from '../adapters/clock';
import type { Db, Queryable } from '../adapters/db';
import { selectRows } from '../adapters/db';
import type { Mailer } from '../adapters/mail';
import { doctors, patients, reminderDeliveries, reminders } from '../db/schema';
import { latestOccurrence, nextOccurrence, retryDelayMs } from './reminder-schedule';

/*
 * Sends the reminders that are due. Safe to run from any number of processes at once, and safe
 * to kill at any instant (kill -9 included):
 *
 *  - ONE occurrence at a time is CLAIMED with a lease: its reminder_deliveries row is inserted
 *    'claimed' (UNIQUE reminder_id, occurrence_at) with lease_until and a fresh lease_holder, in
 *    the transaction that moves the reminder's next_run_at on; a failed send due for a retry is
 *    claimed by a conditional UPDATE failed → claimed. Only the process whose INSERT or UPDATE
 *    succeeded holds the lease (SKIP LOCKED: runners share the work instead of queueing).
 *  - Immediately BEFORE the mailer is called, the row goes 'claimed' → 'sending' in its own
 *    committed UPDATE, conditional on still holding an unexpired lease.
 *  - 'sent' only after the mailer accepted the message; a send that throws is 'failed' with its
 *    error and retried later (1 min, 2, 4 … ≤ 1 h) up to REMINDER_MAX_ATTEMPTS. An unverified
 *    address or a reminder cancelled meanwhile is 'failed' before the mailer, and not retried.
 *  - A lease that runs out: a row still 'claimed' (the mailer was never called) is claimed again
 *    and sent; a row 'sending' (the mailer may have taken the message) becomes 'unknown' and is
 *    never sent again — one missed reminder is better than two, and the doctor sees it.
 *
 * So every occurrence is sent AT MOST ONCE, and a runner dying leaves at most the one mail it was
 * handing to the mailer in doubt ('unknown'); every other due occurrence is sent by the next sweep.
 * A reminder is 'completed' only once none of its occurrences is still to be sent.
 * Tests: reminders.test.ts "leases (a runner that dies mid-sweep)", quality/faults.reminders.test.ts
 * (kill -9 after 5 of 25 mails, both databases); FAULTS.md "Reminder delivery survives a crash".
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
  /** How long a claim is held before another runner may take it back (REMINDER_LEASE_SECONDS). */
  leaseMs?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface RunResult {
  /** occurrences (or retries) claimed by this call */
  claimed: number;
  sent: number;
  failed: number;
  /** deliveries whose runner's lease ran out while sending, marked 'unknown' by this call */
  unknown: number;
}

export const DEFAULT_LEASE_MS = 5 * 60 * 1000;
/** Claims per call: a sweep ends and the next one goes on, so one sweep never runs unbounded. */
const MAX_CLAIMS_PER_SWEEP = 50;
const MAX_ERROR_LENGTH = 1000;

export const UNKNOWN_OUTCOME =
  'the sending process stopped while handing this e-mail to the mail server: it may or may not have been sent, and is not sent again';
export const CANCELLED_BEFORE_SENDING = 'the reminder was cancelled before this e-mail was sent';

export interface Claim {
  deliveryId: string;
  reminderId: string;
  /** the lease's holder: every later write of this runner is conditional on it */
  holder: string;
}

/** Runs one sweep. `now`: a fixed instant (tests) or a clock read at each step. */
export async function runDueReminders(ctx: RunnerContext, now: Date | Clock): Promise<RunResult> {
  const clock: Clock = now instanceof Date ? { now: () => now } : now;
  const leaseMs = ctx.leaseMs ?? DEFAULT_LEASE_MS;
  const result: RunResult = { claimed: 0, sent: 0, failed: 0, unknown: 0 };
  result.unknown = await expireSendingLeases(ctx, clock.now());
  for (let i = 0; i < MAX_CLAIMS_PER_SWEEP; i++) {
    const claim = await claimNext(ctx.db, clock.now(), leaseMs, ctx.timeZone);
    if (claim === 'none') break;
    if (claim === 'skipped') continue;
    result.claimed += 1;
    const outcome = await deliver(ctx, claim, clock, leaseMs);
    if (outcome === 'sent') result.sent += 1;
    else if (outcome === 'failed') result.failed += 1;
  }
  return result;
}

/** 'sending' rows whose lease ran out: their runner died (or hung) in the mailer → 'unknown'. */
async function expireSendingLeases(ctx: RunnerContext, now: Date): Promise<number> {
  const expired = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(reminderDeliveries)
      .set({ status: 'unknown', lastError: UNKNOWN_OUTCOME, leaseUntil: null })
      .where(and(eq(reminderDeliveries.status, 'sending'), lte(reminderDeliveries.leaseUntil, now)))
      .returning({ id: reminderDeliveries.id, reminderId: reminderDeliveries.reminderId });
    for (const reminderId of new Set(rows.map((r) => r.reminderId))) await settleReminder(tx, reminderId);
    return rows;
  });
  for (const row of expired)
    ctx.log?.warn(
      { reminderId: row.reminderId, deliveryId: row.id },
      'reminder e-mail outcome unknown: its runner stopped while sending; not sent again',
    );
  return expired.length;
}

/**
 * Claims the next occurrence to send, with a lease: a claim whose lease ran out before its mailer
 * was called, else a failed send due for a retry, else a new due occurrence. 'skipped': a due
 * reminder was moved on without a claim (its occurrence has a row already).
 */
export async function claimNext(db: Db, now: Date, leaseMs: number, timeZone: string): Promise<Claim | 'none' | 'skipped'> {
  const holder = randomUUID();
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  // Taken back: 'claimed' is committed before the mailer is ever called for this attempt.
  const [stale] = await selectRows<{ id: string; reminder_id: string }>(
    db,
    sql`
      update ${reminderDeliveries} d
         set lease_until = ${until}::timestamptz, lease_holder = ${holder}::uuid, claimed_at = ${at}::timestamptz
       where d.id = (select c.id from ${reminderDeliveries} c
                      where c.status = 'claimed' and c.lease_until <= ${at}::timestamptz
                      order by c.lease_until limit 1
                        for update skip locked)
         and d.status = 'claimed' and d.lease_until <= ${at}::timestamptz
      returning d.id, d.reminder_id`,
  );
  if (stale) return { deliveryId: stale.id, reminderId: stale.reminder_id, holder };

  // A failed send whose backoff has passed, of a reminder not cancelled: failed → claimed.
  const [retry] = await selectRows<{ id: string; reminder_id: string }>(
    db,
    sql`
      update ${reminderDeliveries} d
         set status = 'claimed', lease_until = ${until}::timestamptz, lease_holder = ${holder}::uuid,
             claimed_at = ${at}::timestamptz, next_attempt_at = null
       where d.id = (select f.id
                       from ${reminderDeliveries} f
                       join ${reminders} r on r.id = f.reminder_id
                      where f.status = 'failed' and f.next_attempt_at <= ${at}::timestamptz and r.status <> 'cancelled'
                      order by f.next_attempt_at
                      limit 1
                        for update of f skip locked)
         and d.status = 'failed'
      returning d.id, d.reminder_id`,
  );
  if (retry) return { deliveryId: retry.id, reminderId: retry.reminder_id, holder };

  // A due reminder → its occurrence's row, claimed, and next_run_at moved past it, in one transaction.
  return db.transaction(async (tx) => {
    const [r] = await tx
      .select({
        id: reminders.id,
        startAt: reminders.startAt,
        intervalDays: reminders.intervalDays,
        nextRunAt: reminders.nextRunAt,
      })
      .from(reminders)
      .where(and(eq(reminders.status, 'scheduled'), lte(reminders.nextRunAt, now)))
      .orderBy(asc(reminders.nextRunAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!r) return 'none' as const;
    let occurrence = latestOccurrence(r.startAt, r.intervalDays, now, timeZone);
    if (r.nextRunAt && occurrence < r.nextRunAt) occurrence = r.nextRunAt;
    const next = nextOccurrence(r.startAt, r.intervalDays, occurrence, timeZone);
    const [inserted] = await tx
      .insert(reminderDeliveries)
      .values({
        reminderId: r.id,
        occurrenceAt: occurrence,
        status: 'claimed',
        attempts: 0,
        claimedAt: now,
        leaseUntil: new Date(until),
        leaseHolder: holder,
      })
      .onConflictDoNothing({ target: [reminderDeliveries.reminderId, reminderDeliveries.occurrenceAt] })
      .returning({ id: reminderDeliveries.id });
    // The last occurrence leaves next_run_at null; 'completed' waits until it is sent or given up.
    await tx.update(reminders).set({ nextRunAt: next }).where(eq(reminders.id, r.id));
    if (!next) await settleReminder(tx, r.id);
    return inserted ? { deliveryId: inserted.id, reminderId: r.id, holder } : ('skipped' as const);
  });
}

/**
 * A reminder with no occurrence left to claim becomes 'completed' once none of its deliveries is
 * still to be sent (claimed, sending, or failed with a retry pending).
 */
export async function settleReminder(db: Queryable, reminderId: string): Promise<void> {
  await db
    .update(reminders)
    .set({ status: 'completed' })
    .where(
      and(
        eq(reminders.id, reminderId),
        eq(reminders.status, 'scheduled'),
        sql`${reminders.nextRunAt} is null`,
        sql`not exists (select 1 from ${reminderDeliveries} d
                         where d.reminder_id = ${reminderId}
                           and (d.status in ('claimed', 'sending') or (d.status = 'failed' and d.next_attempt_at is not null)))`,
      ),
    );
}

type Outcome = 'sent' | 'failed' | 'lost';

/** Sends one claimed occurrence, every write conditional on still holding the claim's lease. */
export async function deliver(ctx: RunnerContext, claim: Claim, clock: Clock, leaseMs: number): Promise<Outcome> {
  const { db } = ctx;
  const held = and(eq(reminderDeliveries.id, claim.deliveryId), eq(reminderDeliveries.leaseHolder, claim.holder));
  const [r] = await db
    .select({
      // The patient's current address, not one stored at scheduling: reminders follow an e-mail change.
      toEmail: patients.email,
      toEmailVerifiedAt: patients.emailVerifiedAt,
      status: reminders.status,
      subject: reminders.subject,
      text: reminders.text,
      doctorName: doctors.name,
      doctorEmail: doctors.email,
    })
    .from(reminders)
    .innerJoin(doctors, eq(doctors.id, reminders.doctorId))
    .innerJoin(patients, eq(patients.id, reminders.patientId))
    .where(eq(reminders.id, claim.reminderId));

  const giveUp = async (reason: string): Promise<Outcome> => {
    await db.transaction(async (tx) => {
      await tx
        .update(reminderDeliveries)
        .set({
          status: 'failed',
          lastError: reason,
          attempts: sql`${reminderDeliveries.attempts} + 1`,
          nextAttemptAt: null,
          leaseUntil: null,
        })
        .where(and(held, eq(reminderDeliveries.status, 'claimed')));
      await settleReminder(tx, claim.reminderId);
    });
    ctx.log?.warn({ reminderId: claim.reminderId, deliveryId: claim.deliveryId, reason }, 'reminder e-mail not sent');
    return 'failed';
  };
  if (!r) return giveUp('the reminder is gone');
  if (r.status === 'cancelled') return giveUp(CANCELLED_BEFORE_SENDING);
  // An unproven address is never written to: no retry would change that.
  if (!r.toEmailVerifiedAt) return giveUp(errorText(new UnverifiedAddress()));

  // Committed before the mailer is called: from here on a crash leaves this row 'sending', which
  // its lease's end turns 'unknown' rather than sending it again.
  const startedAt = clock.now();
  const [going] = await db
    .update(reminderDeliveries)
    .set({
      status: 'sending',
      attempts: sql`${reminderDeliveries.attempts} + 1`,
      claimedAt: startedAt,
      leaseUntil: new Date(startedAt.getTime() + leaseMs),
    })
    .where(
      and(
        held,
        eq(reminderDeliveries.status, 'claimed'),
        sql`${reminderDeliveries.leaseUntil} > ${startedAt.toISOString()}::timestamptz`,
      ),
    )
    .returning({ attempts: reminderDeliveries.attempts });
  if (!going) {
    ctx.log?.warn({ reminderId: claim.reminderId, deliveryId: claim.deliveryId }, 'reminder claim lost before sending; not sent');
    return 'lost';
  }
  try {
    await ctx.mailer.send({ to: r.toEmail, subject: r.subject, text: reminderBody(r.text, r.doctorName, r.doctorEmail) });
  } catch (err) {
    const stopped = going.attempts >= ctx.maxAttempts;
    await db.transaction(async (tx) => {
      // Only while still 'sending': a row already declared 'unknown' stays so (never resent).
      await tx
        .update(reminderDeliveries)
        .set({
          status: 'failed',
          lastError: errorText(err),
          leaseUntil: null,
          nextAttemptAt: stopped ? null : new Date(clock.now().getTime() + retryDelayMs(going.attempts)),
        })
        .where(and(held, eq(reminderDeliveries.status, 'sending')));
      await settleReminder(tx, claim.reminderId);
    });
    ctx.log?.warn(
      { err, reminderId: claim.reminderId, deliveryId: claim.deliveryId, attempts: going.attempts, givenUp: stopped },
      stopped ? 'reminder e-mail failed; giving up' : 'reminder e-mail failed; will retry',
    );
    return 'failed';
  }
  const sentAt = clock.now();
  await db.transaction(async (tx) => {
    // Also from 'unknown' (this runner outlived its lease): the mailer did accept it.
    const [marked] = await tx
      .update(reminderDeliveries)
      .set({ status: 'sent', sentAt, nextAttemptAt: null, leaseUntil: null, lastError: null })
      .where(and(held, inArray(reminderDeliveries.status, ['sending', 'unknown'])))
      .returning({ id: reminderDeliveries.id });
    if (marked)
      await tx
        .update(reminders)
        .set({ lastSentAt: sentAt, sentCount: sql`${reminders.sentCount} + 1` })
        .where(eq(reminders.id, claim.reminderId));
    await settleReminder(tx, claim.reminderId);
  });
  return 'sent';
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
