/*
 * One "api replica" for the multi-process reminder test (reminders.multiprocess.test.ts): the
 * real pg-boss runner on DATABASE_URL, with the outbox mailer in DATA_DIR. With STRESS=1 it also
 * calls runDueReminders in a tight loop, so two processes really do race for the same claims.
 * Run with ts-node (transpile only); prints "ready" once started, stops cleanly on SIGTERM.
 */
import { systemClock } from '../adapters/clock';
import { openDatabase } from '../adapters/db';
import { createMailer } from '../adapters/mail';
import { startReminderRunner } from '../modules/reminders/boss';
import { runDueReminders } from '../access';

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR!;
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL!, dataDir });
  const mailer = createMailer({ dataDir, mailFrom: 'CareLoop <no-reply@careloop.example>' });
  const log = {
    info: () => undefined,
    warn: (obj: object, msg: string) => console.error('warn', msg, obj),
    error: (obj: object, msg: string) => console.error('error', msg, obj),
  };
  const maxAttempts = 5;
  const timeZone = process.env.CLINIC_TIME_ZONE ?? 'UTC';
  const runner = await startReminderRunner({
    db,
    mailer,
    clock: systemClock,
    pollSeconds: Number(process.env.REMINDER_POLL_SECONDS ?? 0.5),
    maxAttempts,
    timeZone,
    log,
  });
  let stopping = false;
  const stress = (async () => {
    while (process.env.STRESS === '1' && !stopping) {
      await runDueReminders({ db: db.db, mailer, maxAttempts, timeZone, log }, systemClock.now());
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  process.once('SIGTERM', () => {
    stopping = true;
    void (async () => {
      await stress;
      await runner.stop();
      mailer.close();
      await db.close();
      process.exit(0);
    })();
  });
  console.log('ready');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
