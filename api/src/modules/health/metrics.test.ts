import { account, connect, recordBody } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer, createTestApp, createTestDb, type TestApp } from '../../test/helpers';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';

describe.each(BACKENDS)('GET /metrics on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend, { METRICS_TOKEN: TOKEN });
  beforeAll(() => ({ t } = fixture));

  const scrape = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('answers the latency of each route pattern and status, and nothing a person typed or an id', async () => {
    const doctor = await account(t, 'doctor', { name: 'Dr Ada Lovelace' });
    const patient = await account(t, 'patient', { name: 'Grace Hopper' });
    await connect(t, doctor, patient);
    const record = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title: 'Chest pain' }),
    });
    expect(record.statusCode).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: `/fhir/R4/Patient/${patient.id}` })).statusCode).toBe(401);

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toMatch(
      /careloop_http_request_duration_seconds_count\{method="POST",route="\/medicalhistory\/:patientId",status="201"\} 1/,
    );
    expect(text).toMatch(
      /careloop_http_request_duration_seconds_bucket\{le="0\.5",method="POST",route="\/medicalhistory\/:patientId",status="201"\}/,
    );
    expect(text).toMatch(/route="\/fhir\/R4\/:type\/:id",status="401"/);
    expect(text).toMatch(/^careloop_db_queue_depth \d+$/m);
    expect(text).toMatch(/^careloop_mail_outbox_pending \d+$/m);
    expect(text).toMatch(/^careloop_reminder_lag_seconds 0$/m);
    expect(text).toMatch(/^careloop_process_cpu_seconds_total /m);
    for (const secret of [patient.id, doctor.id, 'Grace Hopper', patient.email, 'Chest pain', TOKEN])
      expect(text).not.toContain(secret);
  });

  it('counts login failures by role and step, never by account', async () => {
    const failures = async () =>
      Number(
        /^careloop_login_failures_total\{role="patient",step="password",outcome="refused"\} (\d+)$/m.exec(
          (await scrape(`Bearer ${TOKEN}`)).body,
        )?.[1] ?? 0,
      );
    const patient = await account(t, 'patient');
    const before = await failures();
    for (const password of ['wrong password 1', 'wrong password 2']) {
      const res = await t.app.inject({ method: 'POST', url: '/patient/login', payload: { email: patient.email, password } });
      expect(res.statusCode).toBe(401);
    }
    expect(await failures()).toBe(before + 2);
    expect((await scrape(`Bearer ${TOKEN}`)).body).not.toContain(patient.email);
  });

  it("says how long the oldest due reminder has waited: the runner's lag", async () => {
    const doctor = await account(t, 'doctor');
    const patient = await account(t, 'patient');
    await connect(t, doctor, patient);
    const scheduled = await t.app.inject({
      method: 'POST',
      url: '/doctor/reminder',
      headers: bearer(doctor.token),
      payload: {
        to: patient.email,
        subject: 'Bloods',
        text: 'Fasting bloods tomorrow',
        startDate: new Date(t.clock.now().getTime() + 60_000).toISOString(),
        intervalDays: 0,
      },
    });
    expect(scheduled.statusCode).toBe(201);
    // due 60 s from now; 5 minutes later, unsent (no runner in this app): 240 s behind
    t.clock.advance(300_000);
    const lag = Number(/^careloop_reminder_lag_seconds (\S+)$/m.exec((await scrape(`Bearer ${TOKEN}`)).body)?.[1]);
    expect(lag).toBe(240);
  });

  it('is refused without the token or with another one', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN.slice(0, -1)}x`)).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}extra`)).statusCode).toBe(401);
  });
});

it('is not there at all when METRICS_TOKEN is not set (the default)', async () => {
  const tdb = await createTestDb('pglite', { migrate: false });
  const t = await createTestApp(tdb.adapter);
  try {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect([res.statusCode, res.json()]).toEqual([404, { error: 'Not found' }]);
    expect(t.app.metrics).toBeNull();
  } finally {
    await t.app.close();
    await tdb.cleanup();
  }
});
