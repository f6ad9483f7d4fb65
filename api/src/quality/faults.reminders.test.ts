import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { Reminder } from '@careloop/shared-contracts';
import { openDatabase, type DbAdapter } from '../adapters/db';
import { reminderDeliveries, reminders } from '../db/schema';
import { account, connect } from '../test/clinical';
import { createDatabase, describeFaults, killAll, sleep, tempDir } from '../test/faults-kit';
import { bearer, createTestApp, parseEml } from '../test/helpers';

/*
 * kill -9 of a reminder runner in the middle of a sweep (FAULTS.md "Reminder delivery survives a
 * crash"). 25 one-off reminders fall due together; the runner process (src/test/reminder-runner-
 * child.ts: the real pg-boss runner) mails 5, hangs in the 6th send, and is SIGKILLed there.
 * A second runner process on the same database and outbox must send the other 19 — 24 e-mails in
 * all, each subject once — and turn the one in flight 'unknown' once its lease has run out,
 * never sending it again. The restarted process also sweeps directly (STRESS=1): the killed
 * process's pg-boss sweep job holds the queue's one running slot until it expires (FAULTS.md
 * "Interrupted sweeps"), which is not what this test is about.
 */

const DUE = 25;
const KILL_AFTER = 5;
const LEASE_SECONDS = 3;

type Backend = 'pglite' | 'postgres';

const CHILD = path.resolve(__dirname, '../test/reminder-runner-child.ts');
const API_DIR = path.resolve(__dirname, '../..');
const started: ChildProcess[] = [];

interface Runner {
  child: ChildProcess;
  exited: Promise<number | string | null>;
  /** Resolves once a stdout line contains `text`. */
  said(text: string, timeoutMs: number): Promise<void>;
  /** Resolves once the runner has made `n` more sweeps that found nothing to do. */
  quietSweeps(n: number, timeoutMs: number): Promise<void>;
  output(): string;
}

function startRunner(env: Record<string, string | undefined>): Runner {
  const child = spawn(process.execPath, ['-r', 'ts-node/register', CHILD], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TS_NODE_TRANSPILE_ONLY: 'true',
      TS_NODE_PROJECT: path.join(API_DIR, 'tsconfig.json'),
      TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'CommonJS', moduleResolution: 'Node10' }),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      REMINDER_POLL_SECONDS: '0.5',
      REMINDER_LEASE_SECONDS: String(LEASE_SECONDS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  // "quiet-sweep" lines (many a second with STRESS=1) are counted, not kept.
  let quiet = 0;
  let partial = '';
  child.stdout!.on('data', (d) => {
    const lines = (partial + String(d)).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (line === 'quiet-sweep') quiet += 1;
      else out += `${line}\n`;
    }
  });
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return {
    child,
    exited,
    output: () => out,
    async said(text, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (!out.includes(text)) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`runner exited before "${text}":\n${out}`);
        if (Date.now() > until) throw new Error(`runner did not say "${text}" within ${timeoutMs} ms:\n${out}`);
        await sleep(50);
      }
    },
    async quietSweeps(n, timeoutMs) {
      const target = quiet + n;
      const until = Date.now() + timeoutMs;
      while (quiet < target) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`runner exited before ${n} quiet sweeps:\n${out}`);
        if (Date.now() > until) throw new Error(`runner made no ${n} quiet sweeps within ${timeoutMs} ms:\n${out}`);
        await sleep(50);
      }
    },
  };
}

/** The reminder subjects in the outbox, one entry per .eml file. */
function mailedSubjects(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => parseEml(fs.readFileSync(path.join(dir, f), 'utf8')).headers.subject);
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, runner: Runner): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${runner.output()}`);
    await sleep(100);
  }
}

async function crashMidSweep(backend: Backend): Promise<void> {
  const dataDir = tempDir(`fault-reminders-${backend}`); // PGlite's data and the shared outbox
  const databaseUrl = backend === 'postgres' ? await createDatabase() : undefined;
  const where = databaseUrl ? { databaseUrl, dataDir: '' } : { dataDir };

  // The reminders, made through the api (in this process), all due now.
  let db: DbAdapter = await openDatabase(where);
  await db.migrate();
  const t = await createTestApp(db, { REMINDERS_PER_DOCTOR_PER_HOUR: '100' });
  const doctor = await account(t, 'doctor', { name: 'Dr Crash' });
  const patient = await account(t, 'patient');
  await connect(t, doctor, patient);
  const due = new Date(Date.now() - 1000).toISOString(); // the runners use the real clock
  const made: Reminder[] = [];
  for (let i = 0; i < DUE; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/doctor/reminder',
      headers: bearer(doctor.token),
      payload: { to: patient.email, subject: `Crash ${i}`, text: `Occurrence ${i}`, startDate: due, intervalDays: 0 },
    });
    expect(res.statusCode).toBe(201);
    made.push(Reminder.parse(res.json()));
  }
  await t.app.close();
  await db.close(); // PGlite: one process per data directory

  const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
  const first = startRunner({ ...env, MAIL_HANG_AFTER: String(KILL_AFTER) });
  await first.said('mail-hang', 60_000); // 5 mailed, the 6th handed to the mail server
  expect(mailedSubjects(dataDir)).toHaveLength(KILL_AFTER);
  first.child.kill('SIGKILL');
  expect(await first.exited).toBe('SIGKILL');

  const second = startRunner({ ...env, STRESS: '1' });
  await until('24 e-mails', () => mailedSubjects(dataDir).length >= DUE - 1, 60_000, second);
  // The one in flight: its lease (3 s) runs out, a sweep declares it unknown.
  await second.said('"unknown":1', 30_000);
  await second.quietSweeps(5, 30_000); // more sweeps, each finding nothing: nothing else may go out
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);

  const subjects = mailedSubjects(dataDir);
  expect(subjects).toHaveLength(DUE - 1);
  expect(new Set(subjects).size).toBe(DUE - 1); // none twice

  db = await openDatabase(where);
  try {
    const ids = made.map((r) => r._id);
    const rows = await db.db.select().from(reminderDeliveries).where(inArray(reminderDeliveries.reminderId, ids));
    expect(rows).toHaveLength(DUE);
    const sent = rows.filter((d) => d.status === 'sent');
    const unknown = rows.filter((d) => d.status === 'unknown');
    expect(sent).toHaveLength(DUE - 1);
    expect(sent.every((d) => d.attempts === 1)).toBe(true);
    expect(unknown).toHaveLength(1);
    const doubtful = made.find((r) => r._id === unknown[0].reminderId)!;
    expect(subjects).not.toContain(doubtful.subject); // in flight when killed: never sent again
    expect(subjects.sort()).toEqual(
      made
        .filter((r) => r !== doubtful)
        .map((r) => r.subject)
        .sort(),
    );
    // Every reminder is done, each shown with what became of its occurrence.
    const states = await db.db.select({ status: reminders.status, sentCount: reminders.sentCount }).from(reminders);
    expect(states.filter((r) => r.status === 'completed')).toHaveLength(DUE);
    expect(states.reduce((n, r) => n + r.sentCount, 0)).toBe(DUE - 1);
  } finally {
    await db.close();
  }
}

afterAll(async () => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await killAll();
});

describeFaults('reminders: kill -9 of the runner mid-sweep (PGlite)', { postgres: false }, () => {
  it('25 due, killed after 5 mails: the other 19 go out after a restart, the one in flight is unknown, none twice', async () => {
    await crashMidSweep('pglite');
  }, 180_000);
});

describeFaults('reminders: kill -9 of the runner mid-sweep (PostgreSQL)', { postgres: true }, () => {
  it('25 due, killed after 5 mails: the other 19 go out after a restart, the one in flight is unknown, none twice', async () => {
    await crashMidSweep('postgres');
  }, 180_000);
});
