import { and, eq, sql } from 'drizzle-orm';
import { MedicalRecord, MedicalRecordCreated, MedicalRecordList } from '@careloop/shared-contracts';
import { selectRows } from '../../adapters/db';
import { auditLog, medicalRecords } from '../../db/schema';
import { account, connect, prescriptionBody, recordBody, setClock, type Account } from '../../test/clinical';
import {
  BACKENDS,
  bearer,
  countAuditedWork,
  countRows,
  createTestApp,
  createTestDb,
  type TestApp,
  type TestDb,
} from '../../test/helpers';

describe.each(BACKENDS)('medical records on %s', (backend) => {
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
  const create = (who: Account | undefined, patientId: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patientId}`,
      headers: who ? bearer(who.token) : {},
      payload: payload as object,
    });
  const list = (who: Account, query = '') =>
    t.app.inject({ method: 'GET', url: `/medicalhistories${query}`, headers: bearer(who.token) });
  const read = (who: Account | undefined, id: string) =>
    t.app.inject({ method: 'GET', url: `/medicalHistory/${id}`, headers: who ? bearer(who.token) : {} });
  const summarize = (who: Account | undefined, id: string, payload?: string, contentType?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/medicalhistory/summary/${id}`,
      headers: { ...(who ? bearer(who.token) : {}), ...(contentType ? { 'content-type': contentType } : {}) },
      ...(payload !== undefined ? { payload } : {}),
    });

  /** A doctor connected to a patient (with a date of birth and a full profile). */
  async function pair(patientBody: Record<string, unknown> = {}) {
    const doctor = await account(t, 'doctor', { name: 'Dr Ada Grey' });
    const patient = await account(t, 'patient', {
      name: 'Pat Doe',
      DOB: '1990-02-28',
      gender: 'Female',
      maritalStatus: 'Married',
      occupation: 'Teacher',
      address: { street: '1 Main St', city: 'Springfield', state: 'IL', pinCode: '62701' },
      ...patientBody,
    });
    await connect(t, doctor, patient);
    return { doctor, patient };
  }

  async function created(doctor: Account, patient: Account, payload: unknown = recordBody()) {
    const res = await create(doctor, patient.id, payload);
    expect(res.statusCode).toBe(201);
    return res.json().record as MedicalRecord;
  }

  const counts = async () => ({
    records: await countRows(tdb.adapter, 'medical_records'),
    // a refusal writes its 'denied' row (proven in access.test.ts); nothing else may be written
    audit: await countAuditedWork(tdb.adapter),
  });

  describe('POST /medicalhistory/{patientId}', () => {
    it('creates the record: 201, biodata filled from the profile and the clock, doctorInfo, the sections', async () => {
      const { doctor, patient } = await pair();
      const res = await create(
        doctor,
        patient.id,
        recordBody({
          title: '  Chest pain  ',
          modeOfAdmission: 'Outpatient',
          history: {
            historyOfPresentingComplaints: 'Pain for 2 days',
            systemicHistory: { cardiovascularSystem: 'S1 S2 normal' },
          },
          gpe: { bloodPressure: '128/84', pulse: 90, temperature: '37.2', respiratoryRate: 18 },
          drug: 'Paracetamol',
        }),
      );
      expect(res.statusCode).toBe(201);
      const body = MedicalRecordCreated.parse(res.json());
      expect(body.alerts).toEqual([]);
      const r = body.record;
      expect(r.patient).toBe(patient.id);
      expect(r.title).toBe('Chest pain');
      expect(r.summary).toBeNull();
      expect(r.biodata).toEqual({
        name: 'Pat Doe',
        email: patient.email,
        gender: 'Female',
        age: { years: 35, months: 0, days: 1 },
        occupation: 'Teacher',
        modeOfAdmission: 'Outpatient',
        dateOfAdmission: '2025-03-01',
        maritalStatus: 'Married',
        address: { street: '1 Main St', city: 'Springfield', state: 'IL', pinCode: '62701' },
      });
      expect(r.doctorInfo).toEqual({ doctorName: 'Dr Ada Grey', doctorEmail: doctor.email });
      expect(r.historyOfPresentingComplaints).toBe('Pain for 2 days');
      expect(r.allergies).toBe('');
      expect(r.systemicHistory.cardiovascularSystem).toBe('S1 S2 normal');
      expect(r.examination.generalPhysicalExamination).toMatchObject({
        bloodPressure: '128/84',
        pulse: 90,
        temperature: '37.2',
        respiratoryRate: 18,
      });
      expect(r.treatment).toEqual({
        prescribedDrug: 'Paracetamol',
        dosage: '500 mg',
        administrationRoute: 'oral',
        dosageFrequency: 'tds',
      });
      expect(r.createdAt).toBe('2025-03-01T10:00:00.000Z');

      const [row] = await db().select().from(medicalRecords).where(eq(medicalRecords.id, r._id));
      expect(row.doctorId).toBe(doctor.id);
      expect(row.patientId).toBe(patient.id);
    });

    it('stores vitals left out as not measured, never SPEC §5\'s defaults 78, 16, "9" (deliberately departed from)', async () => {
      const { doctor, patient } = await pair();
      const r = await created(doctor, patient);
      expect(r.examination.generalPhysicalExamination).toEqual({
        bloodPressure: '',
        pulse: null,
        temperature: '',
        respiratoryRate: null,
        oxygenSaturation: null,
        spo2Scale: 1,
        supplementalOxygen: null,
        consciousness: null,
        observedAt: '',
        bloodSugarLevel: '',
        weight: null,
        height: null,
        Notes: '',
      });
      const summary = (await summarize(doctor, r._id)).json().summary;
      expect(summary).toContain('**Pulse:** Not measured — not scored.');
      expect(summary).toContain('**NEWS2 incomplete: at least 0**');
    });

    it('records bradycardia and slow breathing (pulse 44, respiratory rate 9) and all seven NEWS2 parameters', async () => {
      const { doctor, patient } = await pair();
      const r = await created(
        doctor,
        patient,
        recordBody({
          gpe: {
            pulse: 44,
            respiratoryRate: 9,
            bloodPressure: '100/60',
            temperature: '35.5',
            oxygenSaturation: 95,
            spo2Scale: 2,
            supplementalOxygen: true,
            consciousness: 'V',
            observedAt: '2025-03-01T09:45',
          },
        }),
      );
      expect(r.examination.generalPhysicalExamination).toMatchObject({
        pulse: 44,
        respiratoryRate: 9,
        oxygenSaturation: 95,
        spo2Scale: 2,
        supplementalOxygen: true,
        consciousness: 'V',
        observedAt: '2025-03-01T09:45',
      });
      const summary = (await summarize(doctor, r._id)).json().summary;
      // RR 9 → 1, SpO2 95 scale 2 on oxygen → 2, oxygen 2, systolic 100 → 2, pulse 44 → 1, V → 3, 35.5 °C → 1
      expect(summary).toContain('**NEWS2: 12**');
      expect(summary).toContain('**Response (high, RCP 2017 Chart 4):** emergency response');
    });

    it.each([
      ['pulse 20 and respiratory rate 3', { pulse: 20, respiratoryRate: 3 }],
      [
        "pulse 25, respiratory rate 4, 33 °C and 55/40 (the form's confirmed implausible values, never refused here)",
        { pulse: 25, respiratoryRate: 4, temperature: '33', bloodPressure: '55/40' },
      ],
      ['pulse 300 and respiratory rate 80', { pulse: 300, respiratoryRate: 80 }],
      ['SpO2 20 and 100', { oxygenSaturation: 100 }],
      ['a blood pressure at the plausible edges', { bloodPressure: '300/200' }],
      ['a blood pressure with its unit', { bloodPressure: '50/20 mmHg' }],
      ['an empty pulse (not measured)', { pulse: '' }],
      ['a null respiratory rate (not measured)', { respiratoryRate: null }],
    ])('accepts %s', async (_name, gpe) => {
      const { doctor, patient } = await pair();
      expect((await create(doctor, patient.id, recordBody({ gpe }))).statusCode).toBe(201);
    });

    it("dates the admission and the age in the clinic's time zone (CLINIC_TIME_ZONE)", async () => {
      const sydney = await createTestApp(tdb.adapter, { CLINIC_TIME_ZONE: 'Australia/Sydney' });
      try {
        // 08:30 on 1 March in Sydney (AEDT, UTC+11) is still 28 February in UTC
        setClock(sydney, '2025-02-28T21:30:00Z');
        const doctor = await account(sydney, 'doctor');
        const patient = await account(sydney, 'patient', { name: 'Kim Lee', DOB: '1990-03-01', gender: 'Female' });
        await connect(sydney, doctor, patient);
        const res = await sydney.app.inject({
          method: 'POST',
          url: `/medicalhistory/${patient.id}`,
          headers: bearer(doctor.token),
          payload: recordBody(),
        });
        expect(res.statusCode).toBe(201);
        expect(res.json().record.biodata.dateOfAdmission).toBe('2025-03-01');
        // the birthday is that Sydney day: 35 years, not 34 years 11 months
        expect(res.json().record.biodata.age).toEqual({ years: 35, months: 0, days: 0 });
      } finally {
        await sydney.app.close();
      }
    });

    it("refuses an observation time in the future (the clinic's time zone, 5 minutes' skew allowed): 400, nothing written", async () => {
      const sydney = await createTestApp(tdb.adapter, { CLINIC_TIME_ZONE: 'Australia/Sydney' });
      try {
        // 08:30 on 1 March in Sydney (AEDT, UTC+11)
        setClock(sydney, '2025-02-28T21:30:00Z');
        const doctor = await account(sydney, 'doctor');
        const patient = await account(sydney, 'patient', { name: 'Kim Lee', DOB: '1990-03-01', gender: 'Female' });
        await connect(sydney, doctor, patient);
        const post = (observedAt: string) =>
          sydney.app.inject({
            method: 'POST',
            url: `/medicalhistory/${patient.id}`,
            headers: bearer(doctor.token),
            payload: recordBody({ gpe: { pulse: 88, observedAt } }),
          });
        const before = await counts();
        for (const future of ['2025-03-01T08:36', '2025-03-01T09:30', '2025-03-02T08:00', '2026-01-01T00:00']) {
          const res = await post(future);
          expect([res.statusCode, res.json()]).toEqual([400, { error: 'Observation time cannot be in the future' }]);
        }
        expect(await counts()).toEqual(before);
        // now, 3 minutes ahead (a fast device clock) and 5 minutes ahead are accepted
        for (const fine of ['2025-03-01T08:30', '2025-03-01T08:33', '2025-03-01T08:35']) {
          const res = await post(fine);
          expect(res.statusCode).toBe(201);
          expect(res.json().record.examination.generalPhysicalExamination.observedAt).toBe(fine);
        }
        // read in the clinic's zone: 08:00 on 1 March is past in Sydney, though hours ahead of UTC (21:30 on 28 February)
        expect((await post('2025-03-01T08:00')).statusCode).toBe(201);
      } finally {
        await sydney.app.close();
      }
    });

    it('age is null without a date of birth; the date of admission follows the clock', async () => {
      setClock(t, '2025-12-31T23:30:00Z');
      try {
        const { doctor, patient } = await pair({ DOB: undefined });
        const r = await created(doctor, patient);
        expect(r.biodata.age).toBeNull();
        expect(r.biodata.dateOfAdmission).toBe('2025-12-31');
      } finally {
        setClock(t, '2025-03-01T10:00:00Z');
      }
    });

    it("alerts on this record's allergies, on earlier records' and on earlier prescriptions'", async () => {
      const { doctor, patient } = await pair();
      // this record's own allergy note
      let res = await create(doctor, patient.id, recordBody({ allergies: 'Penicillin (rash)', drug: 'Amoxicillin 500 mg' }));
      expect(res.statusCode).toBe(201);
      // a rash is no severe reaction: a warning, and the record is created
      expect(res.json().alerts).toEqual([
        expect.objectContaining({
          kind: 'allergy',
          severity: 'warning',
          substance: 'Penicillin',
          matchedText: expect.stringMatching(/amoxicillin/i),
          message: expect.stringMatching(/penicillin/i),
        }),
      ]);
      // an earlier record's note, with no allergies in this one
      res = await create(doctor, patient.id, recordBody({ drug: 'Ampicillin' }));
      expect(res.json().alerts).toEqual([expect.objectContaining({ substance: 'Penicillin', kind: 'allergy' })]);
      // an earlier prescription's note
      const { doctor: d2, patient: p2 } = await pair();
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/prescription/${p2.id}`,
            headers: bearer(d2.token),
            payload: prescriptionBody({ allergies: ['sulfonamides'] }),
          })
        ).statusCode,
      ).toBe(201);
      res = await create(d2, p2.id, recordBody({ drug: 'Co-trimoxazole' }));
      expect(res.json().alerts.length).toBeGreaterThan(0);
      expect(res.json().alerts[0].substance).toBe('sulfonamides');
      // and nothing for an unrelated drug
      res = await create(doctor, patient.id, recordBody({ drug: 'Paracetamol' }));
      expect(res.json().alerts).toEqual([]);
    });

    describe('denials: nothing is written', () => {
      it('a patient token: 403', async () => {
        const { patient } = await pair();
        const before = await counts();
        const res = await create(patient, patient.id, recordBody());
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'Forbidden' });
        expect(await counts()).toEqual(before);
      });

      it('an unassigned doctor: 404 Patient not found, as for an unknown id', async () => {
        const { patient } = await pair();
        const stranger = await account(t, 'doctor');
        const before = await counts();
        const res = await create(stranger, patient.id, recordBody());
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Patient not found' });
        const unknown = await create(stranger, '00000000-0000-4000-8000-000000000000', recordBody());
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json()).toEqual({ error: 'Patient not found' });
        // a doctor's own id is not a patient either
        expect((await create(stranger, stranger.id, recordBody())).statusCode).toBe(404);
        expect(await counts()).toEqual(before);
      });

      it('no token or a bad token: 401', async () => {
        const { patient } = await pair();
        const before = await counts();
        expect((await create(undefined, patient.id, recordBody())).statusCode).toBe(401);
        const res = await t.app.inject({
          method: 'POST',
          url: `/medicalhistory/${patient.id}`,
          headers: bearer('x'.repeat(43)),
          payload: recordBody(),
        });
        expect(res.statusCode).toBe(401);
        expect(await counts()).toEqual(before);
      });

      it('a malformed patient id: 400', async () => {
        const { doctor } = await pair();
        const res = await create(doctor, 'not-a-uuid', recordBody());
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: expect.stringMatching(/patientId/) });
      });

      const bad: [string, (b: ReturnType<typeof recordBody>) => unknown, RegExp][] = [
        ['missing title', (b) => ({ ...b, medicalHistory: { ...b.medicalHistory, title: undefined } }), /title/],
        ['blank title', (b) => ({ ...b, medicalHistory: { ...b.medicalHistory, title: '   ' } }), /Title is required/],
        ['pulse 19', (b) => ({ ...b, examination: { generalPhysicalExamination: { pulse: 19 } } }), /Pulse must be at least 20/],
        [
          'pulse 301',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { pulse: 301 } } }),
          /Pulse must be at most 300/,
        ],
        [
          'respiratory rate 2',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { respiratoryRate: 2 } } }),
          /Respiratory rate must be at least 3/,
        ],
        [
          'respiratory rate 81',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { respiratoryRate: 81 } } }),
          /Respiratory rate must be at most 80/,
        ],
        [
          'SpO2 101',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { oxygenSaturation: 101 } } }),
          /SpO2 must be at most 100/,
        ],
        [
          'blood pressure 1200/80',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { bloodPressure: '1200/80' } } }),
          /Blood pressure must be systolic\/diastolic in mmHg, 2–3 digits each \(e\.g\. 120\/80\)$/,
        ],
        [
          'blood pressure 120',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { bloodPressure: '120' } } }),
          /Blood pressure must be systolic\/diastolic/,
        ],
        [
          'blood pressure 80/120 (diastolic above systolic)',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { bloodPressure: '80/120' } } }),
          /Blood pressure: systolic \(80\) must be higher than diastolic \(120\)/,
        ],
        [
          'blood pressure 49/30',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { bloodPressure: '49/30' } } }),
          /Blood pressure: systolic 49 mmHg is outside 50–300 mmHg/,
        ],
        [
          'blood pressure 150/19',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { bloodPressure: '150/19' } } }),
          /Blood pressure: diastolic 19 mmHg is outside 20–200 mmHg/,
        ],
        [
          'glucose "-5 mmol/L" (a sign)',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { bloodSugarLevel: '-5 mmol/L' } } }),
          /Blood sugar level must be a plain number without a sign or exponent/,
        ],
        [
          'glucose "1e309 mg/dL" (an exponent)',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { bloodSugarLevel: '1e309 mg/dL' } } }),
          /Blood sugar level must be a plain number without a sign or exponent/,
        ],
        [
          'temperature "+38.5" (a sign)',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { temperature: '+38.5' } } }),
          /Temperature must be a plain number without a sign or exponent/,
        ],
        [
          'temperature "3.7e1"',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { temperature: '3.7e1' } } }),
          /Temperature must be a plain number without a sign or exponent/,
        ],
        [
          'a consciousness outside ACVPU',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { consciousness: 'confused' } } }),
          /Consciousness must be one of/,
        ],
        [
          'SpO2 scale 3',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { spo2Scale: 3 } } }),
          /SpO2 scale must be one of/,
        ],
        [
          'supplemental oxygen "yes"',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { supplementalOxygen: 'yes' } } }),
          /Air or oxygen must be one of/,
        ],
        [
          'an observation time that is not one',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { observedAt: 'this morning' } } }),
          /Observation time must be a date and time/,
        ],
        ['an unknown key at the top', (b) => ({ ...b, doctorId: 'x' }), /doctorId|Unrecognized/],
        ['an unknown key in a section', (b) => ({ ...b, treatment: { ...b.treatment, price: 3 } }), /price|Unrecognized/],
        [
          'a client-sent biodata name',
          (b) => ({ ...b, medicalHistory: { ...b.medicalHistory, biodata: { modeOfAdmission: 'Emergency', name: 'X' } } }),
          /name|Unrecognized/,
        ],
        [
          'a pulse that is not a number',
          (b) => ({ ...b, examination: { generalPhysicalExamination: { pulse: 'fast' } } }),
          /Pulse must be a number/,
        ],
        ['a title that is a number', (b) => ({ ...b, medicalHistory: { ...b.medicalHistory, title: 5 } }), /title/],
        [
          'a wrong mode of admission',
          (b) => ({ ...b, medicalHistory: { ...b.medicalHistory, biodata: { modeOfAdmission: 'Walk-in' } } }),
          /modeOfAdmission/,
        ],
        ['a missing section', (b) => ({ ...b, investigations: undefined }), /investigations/],
        [
          'a history that is an object',
          (b) => ({ ...b, medicalHistory: { ...b.medicalHistory, allergies: { a: 1 } } }),
          /allergies/,
        ],
      ];
      it.each(bad)('a bad body (%s): 400', async (_name, mutate, message) => {
        const { doctor, patient } = await pair();
        const before = await counts();
        const res = await create(doctor, patient.id, mutate(recordBody()));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: expect.stringMatching(message) });
        expect(await counts()).toEqual(before);
      });
    });
  });

  describe('GET /medicalhistories', () => {
    it("pages newest first: a patient their own, a doctor every assigned patient's (any doctor's records)", async () => {
      const d1 = await account(t, 'doctor', { name: 'Dr One' });
      const d2 = await account(t, 'doctor', { name: 'Dr Two' });
      const a = await account(t, 'patient', { name: 'A' });
      const b = await account(t, 'patient', { name: 'B' });
      const c = await account(t, 'patient', { name: 'C' });
      await connect(t, d1, a);
      await connect(t, d1, b);
      await connect(t, d2, a);
      await connect(t, d2, c);

      const titles: string[] = [];
      const write = async (doctor: Account, patient: Account, title: string) => {
        t.clock.advance(60_000);
        await created(doctor, patient, recordBody({ title }));
        titles.push(title);
      };
      for (let i = 1; i <= 11; i++) await write(d1, a, `A${i}`);
      await write(d2, a, 'A by d2 #1');
      await write(d1, b, 'B1');
      await write(d2, c, 'C1 (not d1)');
      await write(d2, a, 'A by d2 #2');

      const page1 = await list(d1);
      expect(page1.statusCode).toBe(200);
      const p1 = MedicalRecordList.parse(page1.json());
      expect(p1).toMatchObject({ page: 1, limit: 10, total: 14 });
      expect(p1.items.map((r) => r.title)).toEqual([
        'A by d2 #2',
        'B1',
        'A by d2 #1',
        'A11',
        'A10',
        'A9',
        'A8',
        'A7',
        'A6',
        'A5',
      ]);

      const p2 = (await list(d1, '?page=2&limit=10')).json();
      expect(p2).toMatchObject({ page: 2, limit: 10, total: 14 });
      expect(p2.items.map((r: MedicalRecord) => r.title)).toEqual(['A4', 'A3', 'A2', 'A1']);
      expect((await list(d1, '?page=3')).json()).toMatchObject({ items: [], total: 14 });
      expect((await list(d1, '?limit=3&page=2')).json().items.map((r: MedicalRecord) => r.title)).toEqual(['A11', 'A10', 'A9']);

      // one assigned patient only
      const onlyB = (await list(d1, `?patientId=${b.id}`)).json();
      expect(onlyB).toMatchObject({ total: 1, items: [expect.objectContaining({ title: 'B1' })] });
      // a patient not assigned to d1: 404, as for an unknown one
      expect((await list(d1, `?patientId=${c.id}`)).statusCode).toBe(404);
      expect((await list(d1, `?patientId=${c.id}`)).json()).toEqual({ error: 'Patient not found' });

      // d2 sees A's and C's, not B's
      const d2List = (await list(d2, '?limit=100')).json();
      expect(d2List.total).toBe(14);
      expect(d2List.items.map((r: MedicalRecord) => r.title)).not.toContain('B1');
      expect(d2List.items.map((r: MedicalRecord) => r.title)).toContain('C1 (not d1)');

      // patients: their own only
      const aList = (await list(a)).json();
      expect(aList).toMatchObject({ total: 13, page: 1, limit: 10 });
      expect(aList.items.every((r: MedicalRecord) => r.patient === a.id)).toBe(true);
      expect(aList.items[0].title).toBe('A by d2 #2');
      expect((await list(b)).json()).toMatchObject({ total: 1 });
      expect((await list(a, `?patientId=${a.id}`)).json()).toMatchObject({ total: 13 });
      expect((await list(a, `?patientId=${b.id}`)).statusCode).toBe(404);

      // a doctor with no patients, a patient with no records
      expect((await list(await account(t, 'doctor'))).json()).toEqual({ items: [], page: 1, limit: 10, total: 0 });
      expect((await list(await account(t, 'patient'))).json()).toEqual({ items: [], page: 1, limit: 10, total: 0 });
    });

    it('ties on created_at are broken by id, and pages never repeat or skip a row', async () => {
      const { doctor, patient } = await pair();
      for (let i = 0; i < 7; i++) await created(doctor, patient, recordBody({ title: `same time ${i}` })); // the clock does not move
      const seen = [
        ...(await list(doctor, `?patientId=${patient.id}&limit=3&page=1`)).json().items,
        ...(await list(doctor, `?patientId=${patient.id}&limit=3&page=2`)).json().items,
        ...(await list(doctor, `?patientId=${patient.id}&limit=3&page=3`)).json().items,
      ].map((r: MedicalRecord) => r._id);
      expect(new Set(seen).size).toBe(7);
      expect(seen).toEqual([...seen].sort().reverse());
      const viaDoctor = [
        ...(await list(doctor, '?limit=4&page=1')).json().items,
        ...(await list(doctor, '?limit=4&page=2')).json().items,
      ].map((r: MedicalRecord) => r._id);
      expect(viaDoctor).toEqual(seen);
    });

    it('rejects bad paging: 400', async () => {
      const { doctor } = await pair();
      for (const q of ['?page=0', '?limit=0', '?limit=101', '?page=x', '?patientId=nope', '?sort=asc']) {
        const res = await list(doctor, q);
        expect(res.statusCode).toBe(400);
      }
    });

    it('without a token: 401', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/medicalhistories' })).statusCode).toBe(401);
    });
  });

  describe('GET /medicalHistory/{id}', () => {
    it('the patient and any doctor assigned to them read it; anyone else gets 404', async () => {
      const { doctor, patient } = await pair();
      const r = await created(doctor, patient);
      const otherAssigned = await account(t, 'doctor');
      await connect(t, otherAssigned, patient);

      for (const who of [patient, doctor, otherAssigned]) {
        const res = await read(who, r._id);
        expect(res.statusCode).toBe(200);
        expect(MedicalRecord.parse(res.json())).toEqual(r);
      }
      const otherPatient = await account(t, 'patient');
      const unassigned = await account(t, 'doctor');
      for (const who of [otherPatient, unassigned]) {
        const res = await read(who, r._id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Medical record not found' });
      }
      const unknown = await read(doctor, '00000000-0000-4000-8000-000000000000');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'Medical record not found' });
      expect((await read(doctor, 'abc')).statusCode).toBe(400);
      expect((await read(undefined, r._id)).statusCode).toBe(401);
      // the path is /medicalHistory/{id}: the lower-case spelling is the POST route only
      expect(
        (await t.app.inject({ method: 'GET', url: `/medicalhistory/${r._id}`, headers: bearer(doctor.token) })).statusCode,
      ).toBe(404);
    });
  });

  describe('POST /medicalhistory/summary/{id}', () => {
    it('builds the summary, stores it on the record, and regenerating overwrites it', async () => {
      const { doctor, patient } = await pair();
      const r = await created(doctor, patient, recordBody({ gpe: { bloodPressure: '150/95' } }));

      const res = await summarize(doctor, r._id, '{}', 'application/json');
      expect(res.statusCode).toBe(200);
      const { summary } = res.json();
      expect(Object.keys(res.json())).toEqual(['summary']);
      expect(summary).toContain('## Vital signs');
      expect(summary).toContain('NEWS2');
      expect(summary).toContain('## Alerts');
      expect(summary).toContain('**Temperature:** Not measured — not scored.');
      expect(summary).not.toMatch(/Amoxicillin/);

      expect((await read(patient, r._id)).json().summary).toBe(summary);
      expect((await list(patient)).json().items[0].summary).toBe(summary);

      // a later prescription with an allergy changes the next summary
      const rx = await t.app.inject({
        method: 'POST',
        url: `/prescription/${patient.id}`,
        headers: bearer(doctor.token),
        payload: prescriptionBody({ prescribedDrug: 'Amoxicillin', allergies: ['penicillin'] }),
      });
      expect(rx.statusCode).toBe(201);
      const again = await summarize(doctor, r._id);
      expect(again.statusCode).toBe(200);
      expect(again.json().summary).not.toBe(summary);
      expect(again.json().summary).toMatch(/Amoxicillin/);
      expect(again.json().summary).toMatch(/Drug–allergy alert/);
      expect((await read(doctor, r._id)).json().summary).toBe(again.json().summary);
    });

    it("uses every allergy on file: a follow-up record's summary alerts on the earlier record's penicillin anaphylaxis", async () => {
      const { doctor, patient } = await pair();
      await created(doctor, patient, recordBody({ title: 'First visit', allergies: 'Penicillin (anaphylaxis)' }));
      // anaphylaxis on file: a stop, so the create needs a reason (409 without one, nothing written)
      const refused = await create(doctor, patient.id, recordBody({ title: 'Follow-up', drug: 'Amoxicillin' }));
      expect(refused.statusCode).toBe(409);
      const followUp = await create(doctor, patient.id, {
        ...recordBody({ title: 'Follow-up', drug: 'Amoxicillin' }),
        overrideReason: 'Tolerated a supervised amoxicillin challenge in 2024',
      });
      expect(followUp.statusCode).toBe(201);
      // the create path alerts …
      expect(followUp.json().alerts.map((a: { substance: string; severity: string }) => [a.substance, a.severity])).toEqual([
        ['Penicillin', 'stop'],
      ]);
      // … and so does the summary, from the same source (the access layer's recordedAllergies)
      const { summary } = (await summarize(doctor, followUp.json().record._id)).json();
      expect(summary).toContain('**On file (earlier records and prescriptions):** Penicillin (anaphylaxis)');
      expect(summary).not.toContain('**Allergies:** Not recorded.');
      expect(summary).toContain('**Drug–allergy alert (stop):** Amoxicillin is a penicillin');
      expect(summary).not.toContain('No alerts.');
    });

    it("another patient's allergies are never on file for this one", async () => {
      const a = await pair();
      const b = await pair();
      await created(a.doctor, a.patient, recordBody({ allergies: 'Penicillin (anaphylaxis)' }));
      const r = await created(b.doctor, b.patient, recordBody({ drug: 'Amoxicillin' }));
      const { summary } = (await summarize(b.doctor, r._id)).json();
      expect(summary).toContain('**Allergies:** Not recorded.');
      expect(summary).not.toMatch(/anaphylaxis|Drug–allergy alert/);
    });

    it('accepts {} or no body at all, even with a JSON content type; refuses any other body', async () => {
      const { doctor, patient } = await pair();
      const r = await created(doctor, patient);
      expect((await summarize(doctor, r._id)).statusCode).toBe(200);
      expect((await summarize(doctor, r._id, '', 'application/json')).statusCode).toBe(200);
      expect((await summarize(doctor, r._id, '{}', 'application/json')).statusCode).toBe(200);
      expect((await summarize(doctor, r._id, '{"x":1}', 'application/json')).statusCode).toBe(400);
      expect((await summarize(doctor, r._id, '{"x":', 'application/json')).statusCode).toBe(400);
    });

    it('a patient: 403; an unassigned doctor: 404; unknown: 404; malformed: 400; no token: 401 — nothing stored', async () => {
      const { doctor, patient } = await pair();
      const r = await created(doctor, patient);
      // Made before counting: signing up writes its own security row.
      const stranger = await account(t, 'doctor');
      const before = await counts();

      const byPatient = await summarize(patient, r._id, '{}', 'application/json');
      expect(byPatient.statusCode).toBe(403);
      const unassigned = await summarize(stranger, r._id);
      expect(unassigned.statusCode).toBe(404);
      expect(unassigned.json()).toEqual({ error: 'Medical record not found' });
      expect((await summarize(doctor, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await summarize(doctor, 'zzz')).statusCode).toBe(400);
      expect((await summarize(undefined, r._id)).statusCode).toBe(401);

      expect(await counts()).toEqual(before);
      expect((await read(doctor, r._id)).json().summary).toBeNull();
    });
  });

  describe('audit', () => {
    const auditRows = (patientId: string) =>
      db().select().from(auditLog).where(eq(auditLog.patientId, patientId)).orderBy(auditLog.id);

    it('appends a row for every create, read, list and summarize, with actor, time and IP', async () => {
      setClock(t, '2025-03-01T18:00:00Z');
      const { doctor, patient } = await pair();
      const r = await created(doctor, patient);
      t.clock.advance(1000);
      await read(patient, r._id);
      t.clock.advance(1000);
      await list(doctor, `?patientId=${patient.id}`);
      t.clock.advance(1000);
      await summarize(doctor, r._id);
      t.clock.advance(1000);
      await list(patient);
      // a denied attempt leaves one row: the refusal, naming who tried
      const intruder = await account(t, 'patient');
      await read(intruder, r._id);

      const rows = await auditRows(patient.id);
      expect(rows.map(({ id: _id, ...row }) => row)).toEqual([
        {
          at: new Date('2025-03-01T18:00:00Z'),
          actorId: doctor.id,
          actorRole: 'doctor',
          action: 'create',
          entity: 'medical_record',
          entityId: r._id,
          patientId: patient.id,
          ip: '127.0.0.1',
          detail: null,
        },
        {
          at: new Date('2025-03-01T18:00:01Z'),
          actorId: patient.id,
          actorRole: 'patient',
          action: 'read',
          entity: 'medical_record',
          entityId: r._id,
          patientId: patient.id,
          ip: '127.0.0.1',
          detail: null,
        },
        {
          at: new Date('2025-03-01T18:00:02Z'),
          actorId: doctor.id,
          actorRole: 'doctor',
          action: 'list',
          entity: 'medical_record',
          entityId: null,
          patientId: patient.id,
          ip: '127.0.0.1',
          detail: null,
        },
        {
          at: new Date('2025-03-01T18:00:03Z'),
          actorId: doctor.id,
          actorRole: 'doctor',
          action: 'summarize',
          entity: 'medical_record',
          entityId: r._id,
          patientId: patient.id,
          ip: '127.0.0.1',
          detail: null,
        },
        {
          at: new Date('2025-03-01T18:00:04Z'),
          actorId: patient.id,
          actorRole: 'patient',
          action: 'list',
          entity: 'medical_record',
          entityId: null,
          patientId: patient.id,
          ip: '127.0.0.1',
          detail: null,
        },
        {
          at: new Date('2025-03-01T18:00:04Z'),
          actorId: intruder.id,
          actorRole: 'patient',
          action: 'denied',
          entity: 'account',
          entityId: null,
          patientId: patient.id,
          ip: '127.0.0.1',
          detail: 'GET /medicalHistory/:id',
        },
      ]);

      // a doctor's list across all patients: a row naming the patient whose records it returned
      await list(doctor);
      const [last] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, doctor.id), eq(auditLog.action, 'list')))
        .orderBy(sql`${auditLog.id} desc`)
        .limit(1);
      expect(last).toMatchObject({ patientId: patient.id, entityId: null, entity: 'medical_record' });
      setClock(t, '2025-03-01T10:00:00Z');
    });

    it('takes the client IP from X-Forwarded-For only behind a trusted proxy', async () => {
      const proxied = await createTestApp(tdb.adapter, { TRUST_PROXY: '1' });
      setClock(proxied, t.clock.now().toISOString());
      try {
        const { doctor, patient } = await pair();
        const r = await created(doctor, patient);
        await proxied.app.inject({
          method: 'GET',
          url: `/medicalHistory/${r._id}`,
          headers: { ...bearer(doctor.token), 'x-forwarded-for': '203.0.113.7' },
        });
        await read(doctor, r._id);
        const ips = (await auditRows(patient.id)).filter((row) => row.action === 'read').map((row) => row.ip);
        expect(ips).toEqual(['203.0.113.7', '127.0.0.1']);
      } finally {
        await proxied.app.close();
      }
    });

    it('is append-only: UPDATE, DELETE and TRUNCATE are refused by the database', async () => {
      const { doctor, patient } = await pair();
      await created(doctor, patient);
      const before = await countRows(tdb.adapter, 'audit_log');
      const attempts = [
        () => db().update(auditLog).set({ ip: '10.0.0.1' }).where(eq(auditLog.patientId, patient.id)),
        () => db().delete(auditLog).where(eq(auditLog.patientId, patient.id)),
        () => db().execute(sql`truncate audit_log`),
        () => db().execute(sql`delete from audit_log`),
      ];
      for (const attempt of attempts) {
        const err = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeDefined();
        const messages: string[] = [];
        for (let e = err as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
          messages.push(String(e.message));
        expect(messages.join(' | ')).toMatch(/audit_log is append-only/);
      }
      expect(await countRows(tdb.adapter, 'audit_log')).toBe(before);
      const rows = await selectRows<{ ip: string }>(db(), sql`select ip from audit_log where patient_id = ${patient.id}`);
      expect(rows.every((row) => row.ip === '127.0.0.1')).toBe(true);
    });

    it('a failed audit write rolls the record back (one transaction)', async () => {
      const { doctor, patient } = await pair();
      const before = await counts();
      // Make audit inserts fail for a moment: a check that no row can pass.
      await db().execute(sql`alter table audit_log add constraint audit_log_test_block check (ip = 'never') not valid`);
      try {
        const res = await create(doctor, patient.id, recordBody());
        expect(res.statusCode).toBe(500);
      } finally {
        await db().execute(sql`alter table audit_log drop constraint audit_log_test_block`);
      }
      expect(await counts()).toEqual(before);
    });
  });
});
