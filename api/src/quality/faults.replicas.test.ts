import fs from 'node:fs';
import path from 'node:path';
import { parseEml } from '../test/helpers';
import { BOSS_SCHEMA, REMINDER_QUEUE } from '../modules/reminders/boss';
import { recordBody } from '../test/clinical';
import {
  connectVia,
  createDatabase,
  describeFaults,
  expectHttp,
  http,
  killAll,
  pool,
  signupVia,
  sleep,
  startApi,
  tempDir,
  withClient,
  type ApiProcess,
} from '../test/faults-kit';

/*
 * Two api replicas on one PostgreSQL database under load (FAULTS.md). Both real processes start
 * together on a fresh database (concurrent migrations and pg-boss set-up) and share one DATA_DIR
 * (the outbox). Sessions made on one replica work, and are revoked, on the other; a mixed
 * read/write load spread over both gets no 5xx; reminders scheduled through both go out exactly
 * once each although both runners sweep every 0.5 s.
 */

const LOAD = 300;
const IN_FLIGHT = 12;
const REMINDERS = 8;

describeFaults('fault: two api replicas on one PostgreSQL database under load', { postgres: true }, () => {
  let a: ApiProcess;
  let b: ApiProcess;
  let dataDir: string;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createDatabase();
    dataDir = tempDir('fault-replicas');
    [a, b] = await Promise.all([
      startApi({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }),
      startApi({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }),
    ]);
  });
  afterAll(killAll);

  it('shares sessions, serves a mixed load with no 5xx, and sends each reminder once', async () => {
    // Sessions: made on A, used and revoked on B.
    const patient = await signupVia(a.url, 'patient', 'Replica Patient');
    expect((await expectHttp(b.url, 'GET', '/patient/me', 200, { token: patient.token })).patient._id).toBe(patient.id);
    const second = await expectHttp(a.url, 'POST', '/patient/login', 200, {
      body: { email: patient.email, password: 'correct horse battery' },
    });
    await expectHttp(a.url, 'GET', '/patient/me', 200, { token: second.token });
    await expectHttp(b.url, 'POST', '/patient/logout', 204, { token: second.token });
    await expectHttp(a.url, 'GET', '/patient/me', 401, { token: second.token });
    await expectHttp(a.url, 'GET', '/patient/me', 200, { token: patient.token }); // the other session lives on

    const doctor = await signupVia(b.url, 'doctor', 'Dr Replica');
    await connectVia(a.url, b.url, doctor, patient);
    const firstRecord = (
      await expectHttp(b.url, 'POST', `/medicalhistory/${patient.id}`, 201, {
        token: doctor.token,
        body: recordBody({ title: 'Load 0' }),
      })
    ).record;

    // The load: alternating replicas, mixed reads and writes.
    const statuses = new Map<string, number>();
    const unexpected: string[] = [];
    const started = Date.now();
    const { results } = await pool(LOAD, IN_FLIGHT, async (i) => {
      // Each kind of request goes to both replicas in turn.
      const onA = (i + Math.floor(i / 6)) % 2 === 0;
      const api = onA ? a : b;
      let res;
      let want: number;
      switch (i % 6) {
        case 0:
          want = 201;
          res = await http(api.url, 'POST', `/medicalhistory/${patient.id}`, {
            token: doctor.token,
            body: recordBody({ title: `Load ${i}` }),
          });
          break;
        case 1:
          want = 200;
          res = await http(api.url, 'GET', `/medicalhistories?patientId=${patient.id}&limit=20`, { token: doctor.token });
          break;
        case 2:
          want = 200;
          res = await http(api.url, 'GET', '/patient/me', { token: patient.token });
          break;
        case 3:
          want = 200;
          res = await http(api.url, 'GET', `/medicalHistory/${firstRecord._id}`, { token: patient.token });
          break;
        case 4:
          want = 200;
          res = await http(api.url, 'GET', '/medicalhistories?limit=5', { token: patient.token });
          break;
        default:
          want = 200;
          res = await http(api.url, 'GET', '/doctor/me', { token: doctor.token });
      }
      const key = `${onA ? 'A' : 'B'} ${res.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (res.status !== want) unexpected.push(`request ${i}: wanted ${want}, got ${res.status} ${JSON.stringify(res.body)}`);
    });
    console.log(`two replicas: ${LOAD} requests in ${Date.now() - started} ms`, Object.fromEntries(statuses));
    for (const [i, r] of results.entries()) if (r.status === 'rejected') unexpected.push(`request ${i}: ${String(r.reason)}`);
    if (unexpected.length > 0) console.log(`replica A output:\n${a.output()}\nreplica B output:\n${b.output()}`);
    expect(unexpected).toEqual([]);
    expect([...statuses.keys()].filter((k) => / 5\d\d$/.test(k))).toEqual([]);
    const list = await expectHttp(a.url, 'GET', `/medicalhistories?patientId=${patient.id}&limit=1`, 200, {
      token: doctor.token,
    });
    expect(list.total).toBe(1 + LOAD / 6);

    // Reminders due now, scheduled through both replicas: each occurrence goes out exactly once.
    const due = new Date(Date.now() - 1000).toISOString();
    const subjects: string[] = [];
    for (let i = 0; i < REMINDERS; i++) {
      const api = i % 2 === 0 ? a : b;
      subjects.push(`Replica reminder ${i}`);
      await expectHttp(api.url, 'POST', '/doctor/reminder', 201, {
        token: doctor.token,
        body: { to: patient.email, subject: subjects[i], text: `Occurrence ${i}`, startDate: due, intervalDays: i % 2 },
      });
    }
    const outbox = path.join(dataDir, 'outbox');
    const sentSubjects = () =>
      (fs.existsSync(outbox) ? fs.readdirSync(outbox) : [])
        .filter((f) => f.endsWith('.eml'))
        .map((f) => parseEml(fs.readFileSync(path.join(outbox, f), 'utf8')).headers.subject)
        .filter((s) => s.startsWith('Replica reminder'));
    const until = Date.now() + 30_000;
    while (sentSubjects().length < REMINDERS && Date.now() < until) await sleep(250);
    // The replicas keep sweeping: four more sweeps (pg-boss's completed jobs), and nothing more may go out.
    const sweeps = () =>
      withClient(databaseUrl, async (c) => {
        const q = `select count(*)::int as n from ${BOSS_SCHEMA}.job where name = $1 and state = 'completed'`;
        return (await c.query<{ n: number }>(q, [REMINDER_QUEUE])).rows[0].n;
      });
    const sweptBefore = await sweeps();
    const sweepsUntil = Date.now() + 30_000;
    while ((await sweeps()) < sweptBefore + 4) {
      if (Date.now() > sweepsUntil) throw new Error('the replicas did not keep sweeping');
      await sleep(100);
    }
    expect(sentSubjects().sort()).toEqual([...subjects].sort());

    const rows = await withClient(
      databaseUrl,
      async (c) => (await c.query<{ status: string; attempts: number }>(`select status, attempts from reminder_deliveries`)).rows,
    );
    expect(rows).toHaveLength(REMINDERS);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);

    // Both still healthy, and both stop cleanly.
    for (const api of [a, b]) {
      expect(api.alive()).toBe(true);
      expect(api.output()).not.toMatch(/unhandled error/);
      api.child.kill('SIGTERM');
    }
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
  }, 120_000);
});
