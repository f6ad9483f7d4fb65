import { eq } from 'drizzle-orm';
import { DrugAlertResponse, Prescription, PrescriptionCreated, PrescriptionList } from 'shared-contracts';
import { auditLog } from '../../db/schema';
import { account, connect, prescriptionBody, recordBody, setClock, type Account } from '../../test/clinical';
import { BACKENDS, bearer, countRows, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';

describe.each(BACKENDS)('prescriptions on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter);
    setClock(t, '2025-03-01T10:00:00Z');
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  const db = () => tdb.adapter.db;
  const prescribe = (who: Account | undefined, patientId: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/prescription/${patientId}`,
      headers: who ? bearer(who.token) : {},
      payload: payload as object,
    });
  const list = (who: Account, query = '') =>
    t.app.inject({ method: 'GET', url: `/prescription${query}`, headers: bearer(who.token) });
  const read = (who: Account | undefined, id: string) =>
    t.app.inject({ method: 'GET', url: `/prescription/${id}`, headers: who ? bearer(who.token) : {} });
  const drugAlerts = (who: Account | undefined, patientId: string, query: string) =>
    t.app.inject({ method: 'GET', url: `/drug-alerts/${patientId}${query}`, headers: who ? bearer(who.token) : {} });
  const writeRecord = (doctor: Account, patient: Account, body = recordBody()) =>
    t.app.inject({ method: 'POST', url: `/medicalhistory/${patient.id}`, headers: bearer(doctor.token), payload: body });

  async function pair() {
    const doctor = await account(t, 'doctor', { name: 'Dr Rx' });
    const patient = await account(t, 'patient', { name: 'Pat Rx' });
    await connect(t, doctor, patient);
    return { doctor, patient };
  }

  const counts = async () => ({
    prescriptions: await countRows(tdb.adapter, 'prescriptions'),
    audit: await countRows(tdb.adapter, 'audit_log'),
  });

  describe('POST /prescription/{patientId}', () => {
    it("201 with the fields, assignedBy = the doctor's name, and no alerts when nothing is recorded", async () => {
      const { doctor, patient } = await pair();
      const res = await prescribe(
        doctor,
        patient.id,
        prescriptionBody({ prescribedDrug: ' Amoxicillin ', allergies: ['latex'] }),
      );
      expect(res.statusCode).toBe(201);
      const body = PrescriptionCreated.parse(res.json());
      expect(body).toEqual({
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        prescribedDrug: 'Amoxicillin',
        dosage: '1 g',
        administrationRoute: 'oral',
        dosageFrequency: 'qds',
        allergies: ['latex'],
        assignedBy: 'Dr Rx',
        patientId: patient.id,
        patientName: 'Pat Rx',
        createdAt: '2025-03-01T10:00:00.000Z',
        alerts: [],
      });
      const allergiesDefault = await prescribe(doctor, patient.id, {
        prescribedDrug: 'Paracetamol',
        dosage: '1 g',
        administrationRoute: 'oral',
        dosageFrequency: 'qds',
      });
      expect(allergiesDefault.statusCode).toBe(201);
      expect(allergiesDefault.json().allergies).toEqual([]);
    });

    it('alerts for amoxicillin when an earlier record notes a penicillin allergy, and still prescribes', async () => {
      const { doctor, patient } = await pair();
      expect((await writeRecord(doctor, patient, recordBody({ allergies: 'Penicillin - anaphylaxis 2019' }))).statusCode).toBe(
        201,
      );
      const before = await counts();
      const res = await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Amoxicillin 500 mg capsules' }));
      expect(res.statusCode).toBe(201);
      expect(res.json().alerts).toEqual([
        expect.objectContaining({
          drug: 'Amoxicillin 500 mg capsules',
          allergy: 'Penicillin - anaphylaxis 2019',
          kind: 'same-class',
          drugClass: 'penicillins',
          message: expect.stringMatching(/penicillin/i),
        }),
      ]);
      expect(await counts()).toEqual({ prescriptions: before.prescriptions + 1, audit: before.audit + 1 });
      // an unrelated drug: no alert
      expect((await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Paracetamol' }))).json().alerts).toEqual(
        [],
      );
    });

    it("alerts on the allergies typed in this body and on earlier prescriptions' ones", async () => {
      const { doctor, patient } = await pair();
      let res = await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Ibuprofen', allergies: ['aspirin'] }));
      expect(res.json().alerts).toEqual([expect.objectContaining({ allergy: 'aspirin', kind: 'same-class' })]);
      res = await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Naproxen' }));
      expect(res.json().alerts).toEqual([expect.objectContaining({ allergy: 'aspirin' })]);
      // another patient's allergies never leak in
      const other = await pair();
      expect(
        (await prescribe(other.doctor, other.patient.id, prescriptionBody({ prescribedDrug: 'Naproxen' }))).json().alerts,
      ).toEqual([]);
    });

    describe('denials: nothing is written', () => {
      it('a patient token: 403', async () => {
        const { patient } = await pair();
        const before = await counts();
        expect((await prescribe(patient, patient.id, prescriptionBody())).statusCode).toBe(403);
        expect(await counts()).toEqual(before);
      });

      it('an unassigned doctor or an unknown patient: 404 Patient not found', async () => {
        const { patient } = await pair();
        const stranger = await account(t, 'doctor');
        const before = await counts();
        for (const id of [patient.id, '00000000-0000-4000-8000-000000000000']) {
          const res = await prescribe(stranger, id, prescriptionBody());
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual({ error: 'Patient not found' });
        }
        expect(await counts()).toEqual(before);
      });

      it('no token: 401; malformed id: 400', async () => {
        const { doctor, patient } = await pair();
        const before = await counts();
        expect((await prescribe(undefined, patient.id, prescriptionBody())).statusCode).toBe(401);
        expect((await prescribe(doctor, '123', prescriptionBody())).statusCode).toBe(400);
        expect(await counts()).toEqual(before);
      });

      it.each<[string, Record<string, unknown>]>([
        ['a missing drug', { prescribedDrug: undefined }],
        ['a blank dosage', { dosage: '  ' }],
        ['a missing route', { administrationRoute: undefined }],
        ['a missing frequency', { dosageFrequency: undefined }],
        ['allergies as a string', { allergies: 'penicillin, sulfa' }],
        ['an empty allergy', { allergies: [''] }],
        ['an unknown key', { assignedBy: 'Dr Fake' }],
        ['a number for the drug', { prescribedDrug: 42 }],
      ])('a bad body (%s): 400', async (_name, over) => {
        const { doctor, patient } = await pair();
        const before = await counts();
        const res = await prescribe(doctor, patient.id, prescriptionBody(over));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: expect.any(String) });
        expect(await counts()).toEqual(before);
      });
    });
  });

  describe('GET /prescription and /prescription/{id}', () => {
    it("lists newest first with paging: the patient their own, the doctor their assigned patients'", async () => {
      const d1 = await account(t, 'doctor', { name: 'Dr One' });
      const d2 = await account(t, 'doctor', { name: 'Dr Two' });
      const a = await account(t, 'patient');
      const b = await account(t, 'patient');
      await connect(t, d1, a);
      await connect(t, d2, a);
      await connect(t, d2, b);
      for (let i = 1; i <= 11; i++) {
        t.clock.advance(60_000);
        expect((await prescribe(i % 2 ? d1 : d2, a.id, prescriptionBody({ prescribedDrug: `Drug A${i}` }))).statusCode).toBe(201);
      }
      t.clock.advance(60_000);
      await prescribe(d2, b.id, prescriptionBody({ prescribedDrug: 'Drug B1' }));

      const p1 = PrescriptionList.parse((await list(d1)).json());
      expect(p1).toMatchObject({ page: 1, limit: 10, total: 11 });
      expect(p1.items.map((p) => p.prescribedDrug)).toEqual(
        ['A11', 'A10', 'A9', 'A8', 'A7', 'A6', 'A5', 'A4', 'A3', 'A2'].map((x) => `Drug ${x}`),
      );
      expect(p1.items.map((p) => p.assignedBy)).toEqual([
        'Dr One',
        'Dr Two',
        'Dr One',
        'Dr Two',
        'Dr One',
        'Dr Two',
        'Dr One',
        'Dr Two',
        'Dr One',
        'Dr Two',
      ]);
      expect((await list(d1, '?page=2')).json().items.map((p: Prescription) => p.prescribedDrug)).toEqual(['Drug A1']);

      const d2List = (await list(d2)).json();
      expect(d2List.total).toBe(12);
      expect(d2List.items[0].prescribedDrug).toBe('Drug B1');
      expect((await list(d2, `?patientId=${b.id}`)).json().total).toBe(1);
      expect((await list(d1, `?patientId=${b.id}`)).statusCode).toBe(404);

      expect((await list(a)).json()).toMatchObject({ total: 11 });
      expect((await list(b)).json()).toMatchObject({ total: 1, items: [expect.objectContaining({ patientId: b.id })] });
      expect((await list(b, `?patientId=${a.id}`)).statusCode).toBe(404);
      expect((await list(a, '?limit=0')).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'GET', url: '/prescription' })).statusCode).toBe(401);
    });

    it("each prescription names the patient it is for, in a doctor's list across patients and when read", async () => {
      const doctor = await account(t, 'doctor', { name: 'Dr Names' });
      const asha = await account(t, 'patient', { name: 'Asha Rao' });
      const ben = await account(t, 'patient', { name: 'Ben Okafor' });
      await connect(t, doctor, asha);
      await connect(t, doctor, ben);
      t.clock.advance(60_000);
      const forAsha = (await prescribe(doctor, asha.id, prescriptionBody({ prescribedDrug: 'For Asha' }))).json();
      t.clock.advance(60_000);
      await prescribe(doctor, ben.id, prescriptionBody({ prescribedDrug: 'For Ben' }));

      const items = PrescriptionList.parse((await list(doctor)).json()).items;
      expect(items.map((p) => [p.prescribedDrug, p.patientName])).toEqual([
        ['For Ben', 'Ben Okafor'],
        ['For Asha', 'Asha Rao'],
      ]);
      expect(forAsha.patientName).toBe('Asha Rao');
      expect(Prescription.parse((await read(doctor, forAsha._id)).json()).patientName).toBe('Asha Rao');
      // The patient sees their own name; a doctor not assigned to them still sees nothing.
      expect(PrescriptionList.parse((await list(asha)).json()).items.map((p) => p.patientName)).toEqual(['Asha Rao']);
      expect((await read(await account(t, 'doctor'), forAsha._id)).statusCode).toBe(404);
      expect((await list(await account(t, 'doctor'), `?patientId=${asha.id}`)).statusCode).toBe(404);
    });

    it('reads one: the patient or an assigned doctor; anyone else 404 Prescription not found', async () => {
      const { doctor, patient } = await pair();
      const created = (await prescribe(doctor, patient.id, prescriptionBody())).json();
      const { alerts: _alerts, ...prescription } = created;
      for (const who of [patient, doctor]) {
        const res = await read(who, created._id);
        expect(res.statusCode).toBe(200);
        expect(Prescription.parse(res.json())).toEqual(prescription);
      }
      for (const who of [await account(t, 'patient'), await account(t, 'doctor')]) {
        const res = await read(who, created._id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Prescription not found' });
      }
      expect((await read(doctor, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await read(doctor, 'not-an-id')).statusCode).toBe(400);
      expect((await read(undefined, created._id)).statusCode).toBe(401);
    });
  });

  describe('GET /drug-alerts/{patientId}', () => {
    it('checks the drug against the recorded allergies and the typed ones', async () => {
      const { doctor, patient } = await pair();
      await writeRecord(doctor, patient, recordBody({ allergies: 'Penicillin' }));
      await prescribe(doctor, patient.id, prescriptionBody({ allergies: ['Sulfa drugs', 'penicillin'] }));

      const res = await drugAlerts(
        doctor,
        patient.id,
        `?drug=${encodeURIComponent('Amoxicillin')}&allergies=${encodeURIComponent(' latex , , aspirin')}`,
      );
      expect(res.statusCode).toBe(200);
      const body = DrugAlertResponse.parse(res.json());
      expect(body.allergies).toEqual(['Penicillin', 'Sulfa drugs', 'latex', 'aspirin']);
      expect(body.alerts).toEqual([expect.objectContaining({ drug: 'Amoxicillin', allergy: 'Penicillin', kind: 'same-class' })]);

      const typedOnly = (await drugAlerts(doctor, patient.id, '?drug=Ibuprofen&allergies=aspirin')).json();
      expect(typedOnly.alerts).toEqual([expect.objectContaining({ allergy: 'aspirin' })]);
      expect((await drugAlerts(doctor, patient.id, '?drug=Paracetamol')).json().alerts).toEqual([]);

      const fresh = await pair();
      expect((await drugAlerts(fresh.doctor, fresh.patient.id, '?drug=Amoxicillin')).json()).toEqual({
        alerts: [],
        allergies: [],
      });
    });

    it('assigned doctors only: patient 403, unassigned 404, no token 401, bad query 400', async () => {
      const { doctor, patient } = await pair();
      expect((await drugAlerts(patient, patient.id, '?drug=x')).statusCode).toBe(403);
      const unassigned = await drugAlerts(await account(t, 'doctor'), patient.id, '?drug=x');
      expect(unassigned.statusCode).toBe(404);
      expect(unassigned.json()).toEqual({ error: 'Patient not found' });
      expect((await drugAlerts(undefined, patient.id, '?drug=x')).statusCode).toBe(401);
      expect((await drugAlerts(doctor, patient.id, '')).statusCode).toBe(400);
      expect((await drugAlerts(doctor, patient.id, '?drug=')).statusCode).toBe(400);
      expect((await drugAlerts(doctor, patient.id, '?drug=x&other=1')).statusCode).toBe(400);
      expect((await drugAlerts(doctor, 'bad', '?drug=x')).statusCode).toBe(400);
    });
  });

  it("audits create, read, list (and the drug check) with the clock's time", async () => {
    setClock(t, '2025-03-01T12:00:00Z');
    const { doctor, patient } = await pair();
    const created = (await prescribe(doctor, patient.id, prescriptionBody())).json();
    t.clock.advance(5_000);
    await read(patient, created._id);
    await list(doctor, `?patientId=${patient.id}`);
    await drugAlerts(doctor, patient.id, '?drug=x');
    await read(await account(t, 'doctor'), created._id); // denied: no row

    const rows = await db().select().from(auditLog).where(eq(auditLog.patientId, patient.id)).orderBy(auditLog.id);
    expect(rows.map((r) => [r.actorRole, r.action, r.entity, r.entityId, r.at.toISOString()])).toEqual([
      ['doctor', 'create', 'prescription', created._id, '2025-03-01T12:00:00.000Z'],
      ['patient', 'read', 'prescription', created._id, '2025-03-01T12:00:05.000Z'],
      ['doctor', 'list', 'prescription', null, '2025-03-01T12:00:05.000Z'],
      ['doctor', 'list', 'medical_record', null, '2025-03-01T12:00:05.000Z'],
    ]);
    expect(rows.every((r) => r.ip === '127.0.0.1' && r.patientId === patient.id)).toBe(true);
    expect(rows[0].actorId).toBe(doctor.id);
    expect(rows[1].actorId).toBe(patient.id);
  });
});
