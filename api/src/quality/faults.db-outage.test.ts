import fs from 'node:fs';
import path from 'node:path';
import { recordBody } from '../test/clinical';
import {
  connectVia,
  createDatabase,
  describeFaults,
  expectHttp,
  http,
  killAll,
  PgProxy,
  signupVia,
  sleep,
  startApi,
  tempDir,
  type ApiProcess,
  type HttpResult,
  type Party,
} from '../test/faults-kit';

/*
 * Database outage and recovery (FAULTS.md). A real api process talks to PostgreSQL through a TCP
 * proxy owned by the test; the shared PostgreSQL cluster itself is never stopped. An outage
 * cuts every open connection and then either refuses new ones (server down) or swallows them
 * (dead network path: the pool's connection timeout must end the wait). Every db-backed request
 * must answer 503 with Retry-After, never 500 and never hang; once the proxy forwards again the
 * same process must answer 200 by itself, and its reminder runner must still deliver.
 */

const UNAVAILABLE = { error: 'Service temporarily unavailable. Please try again shortly.' };
// The pool's connectionTimeoutMillis (adapters/db.ts) plus scheduling slack on a busy 2-core box.
const MAX_OUTAGE_ANSWER_MS = 5000 + 3000;

describeFaults('fault: PostgreSQL outage answers 503 and recovers without a restart', { postgres: true }, () => {
  let api: ApiProcess;
  let proxy: PgProxy;
  let dataDir: string;
  let doctor: Party;
  let patient: Party;
  let recordId: string;

  beforeAll(async () => {
    const dbUrl = await createDatabase();
    proxy = PgProxy.forUrl(dbUrl);
    await proxy.start();
    dataDir = tempDir('fault-outage');
    api = await startApi({ DATA_DIR: dataDir, DATABASE_URL: proxy.urlFor(dbUrl) });
  });
  afterAll(killAll);

  /** The db-backed requests checked during the outage: a read, a write, a login, a guarded route. */
  function dbRequests(): Promise<HttpResult>[] {
    return [
      http(api.url, 'GET', '/doctor/me', { token: doctor.token }),
      http(api.url, 'GET', `/medicalHistory/${recordId}`, { token: patient.token }),
      http(api.url, 'POST', `/medicalhistory/${patient.id}`, {
        token: doctor.token,
        body: recordBody({ title: 'During outage' }),
      }),
      http(api.url, 'POST', '/patient/login', { body: { email: patient.email, password: 'correct horse battery' } }),
    ];
  }

  function expectUnavailable(res: HttpResult, what: string): void {
    const seen = `${what}: ${res.status} ${JSON.stringify(res.body)} after ${res.ms} ms`;
    expect({ seen, status: res.status, body: res.body, retryAfter: res.headers.get('retry-after') }).toEqual({
      seen,
      status: 503,
      body: UNAVAILABLE,
      retryAfter: '5',
    });
    expect(res.ms).toBeLessThan(MAX_OUTAGE_ANSWER_MS);
  }

  it('serves normally before the outage', async () => {
    doctor = await signupVia(api.url, 'doctor', 'Dr Outage');
    patient = await signupVia(api.url, 'patient');
    await connectVia(api.url, api.url, doctor, patient);
    recordId = (
      await expectHttp(api.url, 'POST', `/medicalhistory/${patient.id}`, 201, {
        token: doctor.token,
        body: recordBody({ title: 'Before outage' }),
      })
    ).record._id;
    expect((await http(api.url, 'GET', '/health')).body).toEqual({ status: 'ok' });
  });

  it('answers 503 + Retry-After while PostgreSQL refuses connections', async () => {
    await proxy.outage('refuse');
    // Several rounds: the first meets the cut pooled connections, later ones fresh connect attempts,
    // while the reminder runner's polls fail in the background.
    for (let round = 0; round < 3; round++) {
      const health = await http(api.url, 'GET', '/health');
      expect({ status: health.status, body: health.body, retryAfter: health.headers.get('retry-after') }).toEqual({
        status: 503,
        body: { status: 'unavailable' },
        retryAfter: '5',
      });
      const results = await Promise.all(dbRequests());
      results.forEach((r, i) => expectUnavailable(r, `round ${round} request ${i}`));
      await sleep(700);
    }
    // Routes that need no database still answer.
    expect((await http(api.url, 'GET', '/openapi.json')).status).toBe(200);
    expect(api.alive()).toBe(true);
  });

  it('answers 503 within the connection timeout while the network path is dead (blackhole)', async () => {
    await proxy.outage('blackhole');
    const started = Date.now();
    const [health, ...results] = await Promise.all([http(api.url, 'GET', '/health'), ...dbRequests()]);
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'unavailable' });
    expect(health.ms).toBeLessThan(MAX_OUTAGE_ANSWER_MS);
    results.forEach((r, i) => expectUnavailable(r, `blackholed request ${i}`));
    expect(Date.now() - started).toBeLessThan(MAX_OUTAGE_ANSWER_MS);
    expect(api.alive()).toBe(true);
  });

  it('recovers by itself once PostgreSQL is reachable again: same process, requests and reminders work', async () => {
    const pid = api.pid;
    await proxy.recover();
    const until = Date.now() + 20_000;
    let health = await http(api.url, 'GET', '/health');
    while (health.status !== 200 && Date.now() < until) {
      await sleep(250);
      health = await http(api.url, 'GET', '/health');
    }
    expect(health.status).toBe(200);
    // Every request succeeds now: no dead connection was kept in the pool.
    for (let i = 0; i < 3; i++) {
      const [me, read, created] = await Promise.all([
        http(api.url, 'GET', '/doctor/me', { token: doctor.token }),
        http(api.url, 'GET', `/medicalHistory/${recordId}`, { token: patient.token }),
        http(api.url, 'POST', `/medicalhistory/${patient.id}`, {
          token: doctor.token,
          body: recordBody({ title: `After outage ${i}` }),
        }),
      ]);
      expect([me.status, read.status, created.status]).toEqual([200, 200, 201]);
      expect(read.body.title).toBe('Before outage');
    }
    // Nothing written during the outage: only the records made before and after it.
    const list = await expectHttp(api.url, 'GET', `/medicalhistories?patientId=${patient.id}&limit=100`, 200, {
      token: doctor.token,
    });
    expect(list.total).toBe(4);

    // The reminder runner (pg-boss) survived the outage and still delivers. (The outbox already
    // holds the signups' verification mails.)
    const outbox = path.join(dataDir, 'outbox');
    const sent = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : []);
    const already = sent();
    await expectHttp(api.url, 'POST', '/doctor/reminder', 201, {
      token: doctor.token,
      body: {
        to: patient.email,
        subject: 'After the outage',
        text: 'Still delivering',
        startDate: new Date(Date.now() - 1000).toISOString(),
        intervalDays: 0,
      },
    });
    const reminderMails = () => sent().filter((f) => !already.includes(f));
    const mailUntil = Date.now() + 30_000;
    while (reminderMails().length < 1 && Date.now() < mailUntil) await sleep(250);
    expect(reminderMails()).toHaveLength(1);
    expect(fs.readFileSync(path.join(outbox, reminderMails()[0]), 'utf8')).toContain('After the outage');

    expect(api.alive()).toBe(true);
    expect(api.pid).toBe(pid);
    expect(api.output()).not.toMatch(/unhandled error|Internal server error/);
  }, 60_000);
});
