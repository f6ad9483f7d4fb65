import PgBoss from 'pg-boss';
import type { Clock } from '../../adapters/clock';
import type { DbAdapter } from '../../adapters/db';
import type { Mailer } from '../../adapters/mail';
import { runDueReminders, type RunResult } from './runner';

/*
 * The durable job runner behind reminder delivery: pg-boss 10 on the app's database — its own
 * pool from the PostgreSQL URL, or (PGlite) its `db` option over the app's one embedded connection.
 *
 * Every replica, every REMINDER_POLL_SECONDS, offers a "sweep" job to the `reminders-due` queue.
 * The queue's 'stately' policy keeps at most one sweep queued and one running across ALL
 * replicas (offers beyond that are dropped by a unique index), so the replicas take turns rather
 * than racing. A sweep runs runDueReminders(now): the per-occurrence claims in runner.ts are what
 * make each e-mail go out at most once, whatever pg-boss does (its jobs are at-least-once).
 * A sweep is also offered at start-up, so reminders that fell due while the api was down go out
 * at once (catch-up rules in runner.ts).
 */

export const REMINDER_QUEUE = 'reminders-due';
const SCHEMA = 'pgboss';

export interface ReminderRunnerOptions {
  db: DbAdapter;
  mailer: Mailer;
  clock: Clock;
  pollSeconds: number;
  maxAttempts: number;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Called after every sweep (tests). */
  onSweep?: (result: RunResult) => void;
}

export interface ReminderRunner {
  stop(): Promise<void>;
}

export async function startReminderRunner(opts: ReminderRunnerOptions): Promise<ReminderRunner> {
  const { db, log } = opts;
  const connection: PgBoss.ConstructorOptions =
    db.kind === 'postgres'
      ? { connectionString: db.connectionString, max: 2, application_name: 'careloop-reminders' }
      : { db: db.executor as PgBoss.Db };
  if (db.kind === 'postgres' ? !db.connectionString : !db.executor) throw new Error('the database adapter gives pg-boss no connection');

  const boss = new PgBoss({
    ...connection,
    schema: SCHEMA,
    schedule: false, // no cron: the poll below drives the sweeps
    supervise: true, // pg-boss's own maintenance (expiry, archive)
  });
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  await boss.start();
  // Idempotent across replicas (ON CONFLICT DO NOTHING in pg-boss).
  await boss.createQueue(REMINDER_QUEUE, {
    name: REMINDER_QUEUE,
    policy: 'stately',
    retryLimit: 0, // a failed sweep is simply redone by the next poll
    expireInSeconds: 15 * 60,
    retentionMinutes: 60,
  });

  const sweep = async () => {
    try {
      const result = await runDueReminders({ db: db.db, mailer: opts.mailer, maxAttempts: opts.maxAttempts, log }, opts.clock.now());
      if (result.claimed > 0) log.info({ ...result }, 'reminder sweep');
      opts.onSweep?.(result);
    } catch (err) {
      log.error({ err }, 'reminder sweep failed'); // e.g. the database is unreachable: the next poll tries again
      throw err;
    }
  };
  const workerId = await boss.work(REMINDER_QUEUE, { pollingIntervalSeconds: opts.pollSeconds, batchSize: 1 }, async () => {
    await sweep();
  });

  let stopping = false;
  let offering: Promise<void> = Promise.resolve();
  const offer = () => {
    if (stopping) return;
    offering = (async () => {
      try {
        // null when a sweep is already queued (stately): then that one covers this tick.
        const id = await boss.send(REMINDER_QUEUE, {}, { retryLimit: 0 });
        if (id) boss.notifyWorker(workerId); // fetch it now rather than at the next poll
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
      await offering;
      // Lets a running sweep finish (its mails and their rows) before closing pg-boss's pool.
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    },
  };
}
