import { sql } from 'drizzle-orm';
import { PgBoss, type ConstructorOptions, type Db } from 'pg-boss';
import type { Clock } from '../../adapters/clock';
import { PG_POOL_OPTIONS, selectRows, type DbAdapter } from '../../adapters/db';
import type { Mailer } from '../../adapters/mail';
import { runDueReminders, type RunResult } from '../../access';

/*
 * The durable job runner behind reminder delivery: pg-boss 12 on the app's database — its own
 * pool from the PostgreSQL URL, or (PGlite) its `db` option over the app's one embedded connection.
 *
 * Every replica, every REMINDER_POLL_SECONDS, offers a "sweep" job to the `reminders-due` queue.
 * The queue's 'stately' policy keeps at most one sweep queued and one running across ALL
 * replicas (offers beyond that are dropped by a unique index), so the replicas take turns rather
 * than racing. A sweep runs runDueReminders(now): the per-occurrence claims in runner.ts are what
 * make each e-mail go out at most once, whatever pg-boss does (its jobs are at-least-once).
 * A sweep is also offered at start-up, so reminders that fell due while the api was down go out
 * at once (catch-up rules in runner.ts).
 *
 * A sweep job dated more than a minute after the database's now (the clock was moved back after
 * it was queued or started) would hold the stately slot until the clock caught up, stopping every
 * sweep meanwhile: each offer first cancels such a job (cancelFutureSweeps), so the new one runs.
 */

export const REMINDER_QUEUE = 'reminders-due';
/**
 * pg-boss's own schema. Named per pg-boss major line: pg-boss 12 migrates only from the 11 schema,
 * and its jobs here are only sweep offers (reminders live in CareLoop's tables), so it starts a
 * fresh schema beside the 10 line's `pgboss`, which replicas still running the previous release
 * keep using during a rolling upgrade. Once none does, `pgboss` can be dropped (docs/scale-out.md).
 */
export const BOSS_SCHEMA = 'pgboss_v12';

export interface ReminderRunnerOptions {
  db: DbAdapter;
  mailer: Mailer;
  clock: Clock;
  pollSeconds: number;
  maxAttempts: number;
  /** The clinic's time zone (CLINIC_TIME_ZONE): reminders keep their local time in it. */
  timeZone: string;
  /** How long a runner holds a claimed occurrence (REMINDER_LEASE_SECONDS); runner.ts. */
  leaseMs?: number;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Called after every sweep (tests). */
  onSweep?: (result: RunResult) => void;
}

export interface ReminderRunner {
  stop(): Promise<void>;
}

export async function startReminderRunner(opts: ReminderRunnerOptions): Promise<ReminderRunner> {
  const { db, log } = opts;
  const connection: ConstructorOptions =
    db.kind === 'postgres'
      ? // The app pool's timeouts and keepalive (adapters/db.ts): pg-boss reconnects by itself after an outage.
        ({
          connectionString: db.connectionString,
          max: 2,
          application_name: 'careloop-reminders',
          ...PG_POOL_OPTIONS,
        } as ConstructorOptions)
      : { db: db.executor as Db };
  if (db.kind === 'postgres' ? !db.connectionString : !db.executor)
    throw new Error('the database adapter gives pg-boss no connection');

  const SWEEP_EXPIRY_SECONDS = 120;
  const boss = new PgBoss({
    ...connection,
    schema: BOSS_SCHEMA,
    schedule: false, // no cron: the poll below drives the sweeps
    supervise: true, // pg-boss's own maintenance (expiry, archive)
    // A sweep killed mid-run (outage, kill -9) holds the stately slot until it expires: look often.
    maintenanceIntervalSeconds: 30,
  });
  // Its polls and maintenance report failures here (e.g. while the database is down) and go on.
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  await boss.start();
  // Idempotent across replicas (ON CONFLICT DO NOTHING in pg-boss). Replicas starting together on
  // a fresh database can still deadlock in it (each also creates the queue's partition table):
  // PostgreSQL aborts one of them (40P01), which simply tries again (found by faults.replicas.test.ts).
  await retryOnDeadlock(() =>
    boss.createQueue(REMINDER_QUEUE, {
      policy: 'stately',
      retryLimit: 0, // a failed sweep is simply redone by the next poll
      expireInSeconds: 15 * 60,
      retentionSeconds: 60 * 60,
    }),
  );

  const sweep = async () => {
    try {
      const result = await runDueReminders(
        { db: db.db, mailer: opts.mailer, maxAttempts: opts.maxAttempts, timeZone: opts.timeZone, leaseMs: opts.leaseMs, log },
        opts.clock,
      );
      if (result.claimed > 0) log.info({ ...result }, 'reminder sweep');
      opts.onSweep?.(result);
    } catch (err) {
      log.error({ err }, 'reminder sweep failed'); // e.g. the database is unreachable: the next poll tries again
      throw err;
    }
  };

  let stopping = false;
  // The sweep loop, on pg-boss's fetch / complete / fail with every call awaited. Not boss.work: its
  // loop records a job's end without awaiting it, so with the database gone that was an unhandled
  // rejection (the process ended) and the job stayed 'active', holding the stately queue's only slot
  // until it expired minutes later (reminders.test.ts "going away in the middle of a sweep"). Here a
  // sweep whose end could not be recorded is recorded first thing once the database answers again.
  let unrecorded: { id: string; ok: boolean } | undefined;
  let wake: (() => void) | undefined;
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve; // an offered sweep or stop() ends the nap early
      setTimeout(resolve, ms).unref();
    }).finally(() => (wake = undefined));
  const record = (job: { id: string; ok: boolean }) =>
    job.ok ? boss.complete(REMINDER_QUEUE, job.id) : boss.fail(REMINDER_QUEUE, job.id);
  const loop = (async () => {
    while (!stopping) {
      try {
        if (unrecorded) {
          await record(unrecorded);
          unrecorded = undefined;
        }
        const [job] = await boss.fetch(REMINDER_QUEUE); // [] also when the database is unreachable
        if (job) {
          unrecorded = { id: job.id, ok: await withinSeconds(sweep(), SWEEP_EXPIRY_SECONDS) };
          await record(unrecorded);
          unrecorded = undefined;
          continue; // another may be queued already
        }
      } catch (err) {
        if (!stopping) log.warn({ err }, 'reminder runner: the database did not answer');
      }
      if (!stopping) await nap(opts.pollSeconds * 1000);
    }
  })();

  let offering: Promise<void> = Promise.resolve();
  const offer = () => {
    if (stopping) return;
    offering = (async () => {
      try {
        await cancelFutureSweeps(boss, db, log);
        // null when a sweep is already queued (stately): then that one covers this tick.
        // Short expiry: an interrupted sweep frees the slot within minutes, not the queue's 15.
        // Safe, because each occurrence is claimed in the database before it is sent.
        const id = await boss.send(REMINDER_QUEUE, {}, { retryLimit: 0, expireInSeconds: SWEEP_EXPIRY_SECONDS });
        if (id) wake?.(); // fetch it now rather than at the next poll
      } catch (err) {
        if (!stopping) log.warn({ err }, 'could not queue a reminder sweep');
      }
    })();
  };
  offer();
  const timer = setInterval(offer, opts.pollSeconds * 1000);
  timer.unref();

  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(timer);
      wake?.();
      await offering;
      // Lets a running sweep finish (its mails and their rows) before closing pg-boss's pool.
      await loop;
      await boss.stop({ graceful: true, timeout: 30_000 }); // resolves once stopped
    },
  };
}

/** Further ahead than this, a queued or running sweep is dated in the future: a clock moved back. */
const FUTURE_SLACK = '1 minute';

/**
 * Cancels the queue's sweep jobs (queued or running) dated more than FUTURE_SLACK after the
 * database's now, which would otherwise hold the stately slot until the clock caught up.
 * Harmless to a real sweep: each occurrence is claimed in the database before it is sent.
 */
export async function cancelFutureSweeps(
  boss: PgBoss,
  db: DbAdapter,
  log: { warn(obj: object, msg: string): void },
): Promise<number> {
  const rows = await selectRows<{ id: string }>(
    db.db,
    sql`select id from ${sql.identifier(BOSS_SCHEMA)}.job
         where name = ${REMINDER_QUEUE} and state in ('created', 'retry', 'active')
           and greatest(created_on, start_after, coalesce(started_on, created_on)) > now() + ${FUTURE_SLACK}::interval`,
  );
  if (rows.length === 0) return 0;
  await boss.cancel(
    REMINDER_QUEUE,
    rows.map((r) => r.id),
  );
  log.warn({ jobs: rows.map((r) => r.id) }, 'reminder sweep jobs dated in the future (clock moved back?) cancelled');
  return rows.length;
}

/**
 * true once `work` ends well within `seconds`, false if it fails or runs longer (then it is left to
 * finish on its own: pg-boss has expired its job by then, and the next sweep may start).
 */
async function withinSeconds(work: Promise<unknown>, seconds: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), seconds * 1000)));
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs an idempotent set-up step again when PostgreSQL aborted it as a deadlock or serialization victim. */
async function retryOnDeadlock<T>(step: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= attempts || (code !== '40P01' && code !== '40001')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}
