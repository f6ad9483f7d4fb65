/*
 * One "api replica" for the multi-process reminder tests (reminders.multiprocess.test.ts,
 * quality/faults.reminders.test.ts): the real pg-boss runner on DATABASE_URL (unset: PGlite in
 * DATA_DIR), with the outbox mailer in DATA_DIR. With STRESS=1 it also calls runDueReminders in a
 * tight loop, so two processes really do race for the same claims. REMINDER_LEASE_SECONDS sets the
 * runner's lease. MAIL_HANG_AFTER=n: the mail server takes n messages, then the next send prints
 * "mail-hang" and never answers (the test kills the process there, a mail in flight).
 * Run with ts-node (transpile only); prints "ready" once started, "sweep {…}" after each sweep that
 * did something, "quiet-sweep" after each that found nothing to do (tests count them, rather than
 * sleep, to show that nothing more goes out), and stops cleanly on SIGTERM.
 */
import { systemClock } from '../adapters/clock';
import { openDatabase } from '../adapters/db';
import { createMailer, type Mailer } from '../adapters/mail';
import { startReminderRunner } from '../modules/reminders/boss';
import { runDueReminders } from '../access';

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR!;
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
  const outbox = createMailer({ dataDir, mailFrom: 'CareLoop <no-reply@careloop.example>' });
  const hangAfter = process.env.MAIL_HANG_AFTER ? Number(process.env.MAIL_HANG_AFTER) : Infinity;
  let taken = 0;
  const mailer: Mailer = {
    kind: outbox.kind,
    close: () => outbox.close(),
    async send(message) {
      if (taken >= hangAfter) {
        console.log('mail-hang');
        return new Promise<never>(() => undefined);
      }
      taken += 1;
      return outbox.send(message);
    },
  };
  const leaseMs = process.env.REMINDER_LEASE_SECONDS ? Number(process.env.REMINDER_LEASE_SECONDS) * 1000 : undefined;
  const report = (result: { claimed: number; unknown: number }) => {
    if (result.claimed > 0 || result.unknown > 0) console.log(`sweep ${JSON.stringify(result)}`);
    else console.log('quiet-sweep');
  };
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
    leaseMs,
    log,
    onSweep: report,
  });
  let stopping = false;
  const stress = (async () => {
    while (process.env.STRESS === '1' && !stopping) {
      report(await runDueReminders({ db: db.db, mailer, maxAttempts, timeZone, leaseMs, log }, systemClock));
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
