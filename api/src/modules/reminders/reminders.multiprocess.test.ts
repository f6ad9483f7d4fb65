import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { Reminder } from '@careloop/shared-contracts';
import { reminderDeliveries } from '../../db/schema';
import { account, connect } from '../../test/clinical';
import { bearer, createTestApp, createTestDb, parseEml, type TestApp, type TestDb } from '../../test/helpers';

/*
 * Exactly once across processes: two real runner processes (src/test/reminder-runner-child.ts:
 * the pg-boss runner plus a tight runDueReminders loop) on one fresh PostgreSQL database, one
 * shared outbox. Every occurrence must produce exactly one .eml and one 'sent' row.
 * PostgreSQL only (PGlite is one process by design): skipped without TEST_DATABASE_URL.
 */
const maybe = process.env.TEST_DATABASE_URL ? describe : describe.skip;

const CHILD = path.resolve(__dirname, '../../test/reminder-runner-child.ts');
const API_DIR = path.resolve(__dirname, '../../..');

function startChild(
  databaseUrl: string,
  dataDir: string,
): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null>; quietSweeps: () => number } {
  const child = spawn(process.execPath, ['-r', 'ts-node/register', CHILD], {
    cwd: API_DIR,
    env: {
      ...process.env,
      TS_NODE_TRANSPILE_ONLY: 'true',
      TS_NODE_PROJECT: path.join(API_DIR, 'tsconfig.json'),
      TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'CommonJS', moduleResolution: 'Node10' }),
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      REMINDER_POLL_SECONDS: '0.5',
      STRESS: '1',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('ready') && resolve());
    void exited.then((code) => reject(new Error(`runner child exited (${code}) before it was ready: ${stderr}`)));
  });
  return { child, ready, exited, quietSweeps: () => (stdout.match(/quiet-sweep/g) ?? []).length };
}

maybe('reminders: exactly once across two processes on PostgreSQL', () => {
  let tdb: TestDb;
  let t: TestApp;
  let outboxRoot: string;
  const children: { child: ChildProcess; exited: Promise<number | null> }[] = [];

  beforeAll(async () => {
    tdb = await createTestDb('postgres');
    t = await createTestApp(tdb.adapter);
    outboxRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-multi-'));
  });
  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    await t?.app.close();
    await tdb?.cleanup();
    fs.rmSync(outboxRoot, { recursive: true, force: true });
  });

  it('two runner processes deliver each due occurrence once', async () => {
    const doctor = await account(t, 'doctor', { name: 'Dr Multi' });
    const patient = await account(t, 'patient');
    await connect(t, doctor, patient);
    // The children use the real clock; the app's test clock started at the real now.
    const due = new Date(Date.now() - 1000).toISOString();
    const made: Reminder[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/doctor/reminder',
        headers: bearer(doctor.token),
        payload: { to: patient.email, subject: `Multi ${i}`, text: `Occurrence ${i}`, startDate: due, intervalDays: i % 3 },
      });
      expect(res.statusCode).toBe(201);
      made.push(Reminder.parse(res.json()));
    }
    const ids = made.map((r) => r._id);

    const databaseUrl = (tdb.adapter as { connectionString?: string }).connectionString!;
    const started = [startChild(databaseUrl, outboxRoot), startChild(databaseUrl, outboxRoot)];
    children.push(...started);
    await Promise.all(started.map((s) => s.ready));

    const sentRows = async () =>
      tdb.adapter.db.select().from(reminderDeliveries).where(inArray(reminderDeliveries.reminderId, ids));
    const until = Date.now() + 40_000;
    while ((await sentRows()).filter((d) => d.status === 'sent').length < ids.length) {
      if (Date.now() > until) throw new Error('the runners did not deliver every reminder in time');
      await new Promise((r) => setTimeout(r, 200));
    }
    // Both keep sweeping: five more sweeps each that find nothing to claim, so nothing more may go out.
    const quietBefore = started.map((s) => s.quietSweeps());
    const quietUntil = Date.now() + 20_000;
    while (started.some((s, i) => s.quietSweeps() < quietBefore[i] + 5)) {
      if (Date.now() > quietUntil) throw new Error('the runners did not keep sweeping');
      await new Promise((r) => setTimeout(r, 50));
    }

    for (const s of started) s.child.kill('SIGTERM');
    expect(await Promise.all(started.map((s) => s.exited))).toEqual([0, 0]); // clean shutdown

    const rows = await sentRows();
    expect(rows).toHaveLength(ids.length);
    expect(rows.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
    expect(new Set(rows.map((d) => d.reminderId)).size).toBe(ids.length);

    const outbox = path.join(outboxRoot, 'outbox');
    const subjects = fs
      .readdirSync(outbox)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => parseEml(fs.readFileSync(path.join(outbox, f), 'utf8')).headers.subject)
      .sort();
    expect(subjects).toEqual(made.map((_r, i) => `Multi ${i}`).sort());
    const sending = await tdb.adapter.db.select().from(reminderDeliveries).where(eq(reminderDeliveries.status, 'sending'));
    expect(sending).toEqual([]);
  }, 90_000);
});
