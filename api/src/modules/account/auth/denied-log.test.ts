import { account, connect, recordBody } from '../../../test/clinical';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../../test/helpers';

// A refused or not-found attempt on someone else's data is logged with the account that tried.

describe.each(BACKENDS)('denied attempts are logged with the caller on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter, { LOG_LEVEL: 'info' }, undefined, (line) => lines.push(JSON.parse(line)));
  });
  afterAll(async () => {
    await t.app.close();
    await tdb.cleanup();
  });

  const completed = (reqId: unknown) => lines.find((l) => l.reqId === reqId && l.msg === 'request completed');
  const reqIdOf = (url: string) => [...lines].reverse().find((l) => (l.req as { url?: string } | undefined)?.url === url)?.reqId;

  it("a doctor reading another doctor's patient's record: 404, logged with the doctor's account", async () => {
    const owner = await account(t, 'doctor');
    const prober = await account(t, 'doctor');
    const patient = await account(t, 'patient');
    await connect(t, owner, patient);
    const created = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(owner.token),
      payload: recordBody(),
    });
    const url = `/medicalHistory/${created.json().record._id}`;
    const probe = await t.app.inject({ method: 'GET', url, headers: bearer(prober.token) });
    expect(probe.statusCode).toBe(404);
    expect(completed(reqIdOf(url))).toMatchObject({ accountId: prober.id, role: 'doctor', res: { statusCode: 404 } });
  });

  it('a patient calling a doctor-only endpoint: 403, logged with the patient account', async () => {
    const patient = await account(t, 'patient');
    const probe = await t.app.inject({ method: 'GET', url: '/doctor/audit', headers: bearer(patient.token) });
    expect(probe.statusCode).toBe(403);
    expect(completed(reqIdOf('/doctor/audit'))).toMatchObject({
      accountId: patient.id,
      role: 'patient',
      res: { statusCode: 403 },
    });
  });
});
