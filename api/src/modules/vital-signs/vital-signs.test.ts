import { and, eq } from 'drizzle-orm';
import { VitalSignTrend } from '@careloop/shared-contracts';
import { auditLog } from '../../db/schema';
import { account, connect, recordBody, setClock, type Account } from '../../test/clinical';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';

/** Every NEWS2 parameter, scoring RR 18 → 0, SpO2 97 → 0, air 0, SBP 128 → 0, pulse 88 → 0, A 0, 37.2 → 0. */
const COMPLETE = {
  bloodPressure: '128/84',
  pulse: 88,
  respiratoryRate: 18,
  temperature: '37.2',
  oxygenSaturation: 97,
  supplementalOxygen: false,
  consciousness: 'A',
};

describe.each(BACKENDS)('GET /vital-signs on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    // Sydney (UTC+11 in March): a record written at 21:30 UTC is dated the next morning there.
    t = await createTestApp(tdb.adapter, { CLINIC_TIME_ZONE: 'Australia/Sydney' });
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  const trend = (who: Account, query = '') =>
    t.app.inject({ method: 'GET', url: `/vital-signs${query}`, headers: bearer(who.token) });

  async function pair() {
    const doctor = await account(t, 'doctor');
    const patient = await account(t, 'patient');
    await connect(t, doctor, patient);
    return { doctor, patient };
  }

  async function write(doctor: Account, patient: Account, at: string, gpe: Record<string, unknown>, title = 'Review') {
    setClock(t, at);
    const res = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title, gpe }),
    });
    expect(res.statusCode).toBe(201);
    return res.json().record._id as string;
  }

  const listAudits = (patientId: string) =>
    t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.patientId, patientId), eq(auditLog.action, 'list'), eq(auditLog.entity, 'medical_record')));

  it("answers the patient's own points oldest first: usable readings as numbers, the rest null, NEWS2 complete or not", async () => {
    const { doctor, patient } = await pair();
    // written first, but observed later (10:15 on 3 March) than the second record; written at
    // 10:30 that day in Sydney (an observation time later than now is refused)
    const complete = await write(
      doctor,
      patient,
      '2025-03-02T23:30:00Z',
      { ...COMPLETE, observedAt: '2025-03-03T10:15' },
      'Complete set',
    );
    // no observation time: dated when written, in Sydney (2025-03-01 08:30 local)
    const partial = await write(
      doctor,
      patient,
      '2025-02-28T21:30:00Z',
      { pulse: 112, temperature: '9', bloodPressure: '', respiratoryRate: null },
      'Partial set',
    );
    const empty = await write(doctor, patient, '2025-03-05T01:00:00Z', {}, 'Nothing measured');

    for (const query of ['', `?patientId=${patient.id}`]) {
      const res = await trend(patient, query);
      expect(res.statusCode).toBe(200);
      const body = VitalSignTrend.parse(res.json());
      expect(body.patientId).toBe(patient.id);
      expect(body.truncated).toBe(false);
      expect(body.points.map((p) => p.recordId)).toEqual([partial, complete, empty]);
      const [first, second, third] = body.points;
      expect(first).toEqual({
        recordId: partial,
        title: 'Partial set',
        at: '2025-03-01T08:30',
        atSource: 'recorded',
        // pulse 112 → 2; the rest not scored: a lower bound, never a band
        news2: { total: 2, complete: false },
        systolic: null,
        diastolic: null,
        pulse: 112,
        respiratoryRate: null,
        oxygenSaturation: null,
        spo2Scale: 1,
        supplementalOxygen: null,
        // SPEC §5's old default "9" is implausible: a gap, never 9 °C
        temperature: null,
      });
      expect(second).toEqual({
        recordId: complete,
        title: 'Complete set',
        at: '2025-03-03T10:15',
        atSource: 'observed',
        news2: { total: 0, complete: true },
        systolic: 128,
        diastolic: 84,
        pulse: 88,
        respiratoryRate: 18,
        oxygenSaturation: 97,
        spo2Scale: 1,
        supplementalOxygen: false,
        temperature: 37.2,
      });
      // nothing scored is no NEWS2 at all (not "at least 0")
      expect(third).toMatchObject({ recordId: empty, at: '2025-03-05T12:00', news2: null, pulse: null, temperature: null });
    }
  });

  it('answers the reference bands from the clinical module, the SpO2 band of the latest scale', async () => {
    const { doctor, patient } = await pair();
    await write(doctor, patient, '2025-03-01T00:00:00Z', { ...COMPLETE, temperature: '98.6 F' });
    let body = VitalSignTrend.parse((await trend(patient)).json());
    expect(body.points[0].temperature).toBe(37);
    expect(body.reference).toEqual({
      systolic: { low: 90, high: 120, unit: 'mmHg' },
      diastolic: { low: 60, high: 80, unit: 'mmHg' },
      pulse: { low: 60, high: 100, unit: '/min' },
      respiratoryRate: { low: 12, high: 20, unit: '/min' },
      oxygenSaturation: { low: 96, high: 100, unit: '%', scale: 1 },
      temperature: { low: 36.1, high: 38, unit: '°C' },
    });
    expect(body.news2Bands).toEqual([
      { band: 'low', low: 0, high: 4 },
      { band: 'medium', low: 5, high: 6 },
      { band: 'high', low: 7, high: 20 },
    ]);

    await write(doctor, patient, '2025-03-02T00:00:00Z', { ...COMPLETE, oxygenSaturation: 90, spo2Scale: 2 });
    body = VitalSignTrend.parse((await trend(patient)).json());
    expect(body.points[1]).toMatchObject({ oxygenSaturation: 90, spo2Scale: 2, news2: { total: 0, complete: true } });
    expect(body.reference.oxygenSaturation).toEqual({ low: 88, high: 92, unit: '%', scale: 2 });
  });

  it('answers an assigned doctor the same points, and writes one list audit row per call naming the patient', async () => {
    const { doctor, patient } = await pair();
    const id = await write(doctor, patient, '2025-03-01T00:00:00Z', COMPLETE);
    const before = (await listAudits(patient.id)).length;
    const res = await trend(doctor, `?patientId=${patient.id}`);
    expect(res.statusCode).toBe(200);
    expect(VitalSignTrend.parse(res.json()).points.map((p) => p.recordId)).toEqual([id]);
    const rows = await listAudits(patient.id);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ actorId: doctor.id, actorRole: 'doctor', entityId: null });
  });

  it('answers an empty trend for a patient without records', async () => {
    const { doctor, patient } = await pair();
    for (const [who, query] of [
      [patient, ''],
      [doctor, `?patientId=${patient.id}`],
    ] as const) {
      const body = VitalSignTrend.parse((await trend(who, query)).json());
      expect(body.points).toEqual([]);
      expect(body.reference.oxygenSaturation.scale).toBe(1);
    }
  });

  it('answers 404 for a patient the caller may not see (an unassigned doctor, another patient), like an unknown id, and audits nothing', async () => {
    const { doctor, patient } = await pair();
    await write(doctor, patient, '2025-03-01T00:00:00Z', COMPLETE);
    const stranger = await account(t, 'doctor');
    const otherPatient = await account(t, 'patient');
    const before = (await listAudits(patient.id)).length;
    for (const [who, query] of [
      [stranger, `?patientId=${patient.id}`],
      [otherPatient, `?patientId=${patient.id}`],
      [doctor, `?patientId=${otherPatient.id}`],
      [doctor, '?patientId=00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await trend(who, query);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Patient not found' });
    }
    expect(await listAudits(patient.id)).toHaveLength(before);
  });

  it('refuses a doctor without patientId and a malformed or unknown query with 400', async () => {
    const { doctor, patient } = await pair();
    const noPatient = await trend(doctor);
    expect(noPatient.statusCode).toBe(400);
    expect(noPatient.json()).toEqual({ error: 'patientId is required' });
    for (const query of ['?patientId=abc', `?patientId=${patient.id}&extra=1`]) {
      const res = await trend(patient, query);
      expect(res.statusCode).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
  });
});
