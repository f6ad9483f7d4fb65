import { AuditPage } from '@careloop/shared-contracts';
import { account, connect, prescriptionBody, recordBody, setClock } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer, type TestApp } from '../../test/helpers';

describe.each(BACKENDS)('the patient audit view on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t } = fixture));

  const auditOf = (token: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/patient/audit${query}`, headers: bearer(token) });

  it('shows who read or changed the caller’s records and prescriptions, newest first, and nobody else’s', async () => {
    const doctor = await account(t, 'doctor', { name: 'Dr Ada Grey' });
    // Unverified patients: their log holds data access only (no 'email-verify' security row).
    const patient = await account(t, 'patient', { name: 'Pat Doe' }, { verified: false });
    const other = await account(t, 'patient', { name: 'Other Person' }, { verified: false });
    await connect(t, doctor, patient);

    setClock(t, '2025-03-01T10:00:00Z');
    const created = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody(),
      remoteAddress: '198.51.100.20',
    });
    expect(created.statusCode).toBe(201);
    const recordId = created.json().record._id;
    setClock(t, '2025-03-01T11:00:00Z');
    expect(
      (await t.app.inject({ method: 'GET', url: `/medicalHistory/${recordId}`, headers: bearer(doctor.token) })).statusCode,
    ).toBe(200);
    setClock(t, '2025-03-01T12:00:00Z');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/prescription/${patient.id}`,
          headers: bearer(doctor.token),
          payload: prescriptionBody(),
        })
      ).statusCode,
    ).toBe(201);

    const res = await auditOf(patient.token);
    expect(res.statusCode).toBe(200);
    const page = AuditPage.parse(res.json());
    expect(page.total).toBe(3);
    expect(page.items.map((e) => [e.at, e.actorName, e.actorRole, e.action, e.entity])).toEqual([
      ['2025-03-01T12:00:00.000Z', 'Dr Ada Grey', 'doctor', 'create', 'prescription'],
      ['2025-03-01T11:00:00.000Z', 'Dr Ada Grey', 'doctor', 'read', 'medical_record'],
      ['2025-03-01T10:00:00.000Z', 'Dr Ada Grey', 'doctor', 'create', 'medical_record'],
    ]);
    expect(page.items[1].entityId).toBe(recordId);
    // A doctor's address is not the patient's to see on a routine access row.
    expect(page.items.map((e) => e.ip)).toEqual([null, null, null]);

    const others = AuditPage.parse((await auditOf(other.token)).json());
    expect(others.items).toEqual([]);
    expect((await auditOf(patient.token, '?page=2&limit=2')).json().items).toHaveLength(1);
  });

  it('records a refused request for the patient’s data with the caller, shown to the patient without the address', async () => {
    const stranger = await account(t, 'doctor', { name: 'Dr Not Yours' });
    const patient = await account(t, 'patient', { name: 'Pat Probe' }, { verified: false });
    const probe = await t.app.inject({
      method: 'GET',
      url: `/medicalhistories?patientId=${patient.id}`,
      headers: bearer(stranger.token),
      remoteAddress: '203.0.113.9',
    });
    expect(probe.statusCode).toBe(404);
    // the patient's own FHIR profile read is an access row, not a security event
    expect(
      (await t.app.inject({ method: 'GET', url: `/fhir/R4/Patient/${patient.id}`, headers: bearer(patient.token) })).statusCode,
    ).toBe(200);
    const page = AuditPage.parse((await auditOf(patient.token)).json());
    expect(page.items.map((e) => [e.actorName, e.action, e.entity, e.kind, e.ip, e.detail])).toEqual([
      ['Pat Probe', 'read', 'account', 'access', expect.any(String), null],
      ['Dr Not Yours', 'denied', 'account', 'access', null, 'GET /medicalhistories'],
    ]);
  });

  it('is the patient’s alone: a doctor gets 403, no token 401, a bad page 400', async () => {
    const doctor = await account(t, 'doctor');
    expect((await auditOf(doctor.token)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/patient/audit' })).statusCode).toBe(401);
    const patient = await account(t, 'patient');
    const bad = await auditOf(patient.token, '?page=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: expect.any(String) });
  });
});
