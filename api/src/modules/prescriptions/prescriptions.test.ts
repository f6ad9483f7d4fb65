import { and, eq, sql } from 'drizzle-orm';
import {
  AuditPage,
  DrugAlertResponse,
  OVERRIDE_REQUIRED_ERROR,
  OverrideRequired,
  Prescription,
  PrescriptionCreated,
  PrescriptionList,
} from '@careloop/shared-contracts';
import { randomUUID } from 'node:crypto';
import { ALLERGY_ENTRY_COLUMNS, allergyNotesOf, allergyRowsOf, insertAllergies, noteKey } from '../../access/allergy-entries';
import { revokeAssignment } from '../../access/assignments';
import { prescribingContextOf } from '../../access/prescribing';
import { prescribedDrugsOf, writePrescription } from '../../access/prescriptions';
import { distinctNotes } from '../../access/records';
import { selectRows } from '../../adapters/db';
import { auditLog, prescriptions } from '../../db/schema';
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

/** A day far from every prescription these tests write: nothing has ended or been stopped by then. */
const TODAY = '2020-01-01';
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
    // a refusal writes its 'denied' row (proven in access.test.ts); nothing else may be written
    audit: await countAuditedWork(tdb.adapter),
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
        status: 'active',
        endsOn: null,
        longTerm: false,
        stopped: null,
        override: null,
        uncoded: [],
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

    describe('a stop alert (penicillin anaphylaxis on file, amoxicillin prescribed)', () => {
      const REASON = 'Tolerated a supervised amoxicillin challenge in 2024';
      async function anaphylaxisOnFile() {
        const p = await pair();
        const rec = await writeRecord(p.doctor, p.patient, recordBody({ allergies: 'Penicillin - anaphylaxis 2019' }));
        expect(rec.statusCode).toBe(201);
        return p;
      }
      const overrideRows = (patientId: string) =>
        db()
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.patientId, patientId), eq(auditLog.action, 'override')));

      it('without a reason: 409 with every alert, and nothing written', async () => {
        const { doctor, patient } = await anaphylaxisOnFile();
        const before = await counts();
        const res = await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Amoxicillin 500 mg capsules' }));
        expect(res.statusCode).toBe(409);
        const body = OverrideRequired.parse(res.json());
        expect(body.error).toBe(OVERRIDE_REQUIRED_ERROR);
        expect(body.alerts).toEqual([
          expect.objectContaining({
            kind: 'allergy',
            severity: 'stop',
            substance: 'Penicillin',
            matchedText: expect.stringMatching(/amoxicillin/i),
            message: expect.stringMatching(/penicillin/i),
          }),
        ]);
        expect(await counts()).toEqual(before);
      });

      it("with a reason: 201 with the alerts, and an 'override' audit row keeping the reason and the substance", async () => {
        const { doctor, patient } = await anaphylaxisOnFile();
        const before = await counts();
        const res = await prescribe(
          doctor,
          patient.id,
          prescriptionBody({ prescribedDrug: 'Amoxicillin 500 mg capsules', overrideReason: `  ${REASON} ` }),
        );
        expect(res.statusCode).toBe(201);
        const created = PrescriptionCreated.parse(res.json());
        expect(created.alerts.map((a) => [a.severity, a.substance])).toEqual([['stop', 'Penicillin']]);
        // the prescription, its create row and the override row
        expect(await counts()).toEqual({ prescriptions: before.prescriptions + 1, audit: before.audit + 2 });
        const [row] = await overrideRows(patient.id);
        expect(row).toMatchObject({
          actorId: doctor.id,
          actorRole: 'doctor',
          entity: 'prescription',
          entityId: created._id,
          patientId: patient.id,
          detail: `${REASON} (stop alert: Penicillin)`,
        });
      });

      it('both access histories show the override with its reason', async () => {
        const { doctor, patient } = await anaphylaxisOnFile();
        const created = await prescribe(
          doctor,
          patient.id,
          prescriptionBody({ prescribedDrug: 'Amoxicillin', overrideReason: REASON }),
        );
        expect(created.statusCode).toBe(201);
        for (const who of [patient, doctor]) {
          const res = await t.app.inject({ method: 'GET', url: `/${who.role}/audit?limit=100`, headers: bearer(who.token) });
          expect(res.statusCode).toBe(200);
          const overrides = AuditPage.parse(res.json()).items.filter((e) => e.action === 'override');
          expect(overrides).toEqual([
            expect.objectContaining({
              actorName: 'Dr Rx',
              actorRole: 'doctor',
              entity: 'prescription',
              entityId: created.json()._id,
              kind: 'access',
              detail: `${REASON} (stop alert: Penicillin)`,
            }),
          ]);
        }
        // another doctor's history does not show it
        const other = await account(t, 'doctor');
        const theirs = await t.app.inject({ method: 'GET', url: '/doctor/audit?limit=100', headers: bearer(other.token) });
        expect(AuditPage.parse(theirs.json()).items.filter((e) => e.action === 'override')).toEqual([]);
      });

      it.each<[string, unknown]>([
        ['too short', 'ok'],
        ['blank', '   '],
        ['too long', 'x'.repeat(501)],
        ['not text', 42],
        ['with a NUL', 'because\u0000'],
      ])('a reason %s: 400, nothing written', async (_name, overrideReason) => {
        const { doctor, patient } = await anaphylaxisOnFile();
        const before = await counts();
        const res = await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Amoxicillin', overrideReason }));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: expect.stringContaining('overrideReason') });
        expect(await counts()).toEqual(before);
      });

      it('a patient cannot create, reason or not: 403, nothing written', async () => {
        const { patient } = await anaphylaxisOnFile();
        const before = await counts();
        const res = await prescribe(
          patient,
          patient.id,
          prescriptionBody({ prescribedDrug: 'Amoxicillin', overrideReason: REASON }),
        );
        expect(res.statusCode).toBe(403);
        const rec = await writeRecord(patient, patient, {
          ...recordBody({ drug: 'Amoxicillin' }),
          overrideReason: REASON,
        } as never);
        expect(rec.statusCode).toBe(403);
        expect(await counts()).toEqual(before);
        expect(await overrideRows(patient.id)).toEqual([]);
      });

      it('the record form path too: 409 without a reason; with one, an override row for the new record', async () => {
        const { doctor, patient } = await anaphylaxisOnFile();
        const before = await counts();
        const refused = await writeRecord(doctor, patient, recordBody({ drug: 'Amoxicillin 500 mg' }));
        expect(refused.statusCode).toBe(409);
        expect(OverrideRequired.parse(refused.json()).alerts[0]).toMatchObject({ severity: 'stop', substance: 'Penicillin' });
        expect(await counts()).toEqual(before);
        const ok = await writeRecord(doctor, patient, {
          ...recordBody({ drug: 'Amoxicillin 500 mg' }),
          overrideReason: REASON,
        } as never);
        expect(ok.statusCode).toBe(201);
        const [row] = await overrideRows(patient.id);
        expect(row).toMatchObject({
          entity: 'medical_record',
          entityId: ok.json().record._id,
          detail: expect.stringContaining(REASON),
        });
      });
    });

    it('warnings and information never block, and a reason given without a stop is not recorded', async () => {
      const { doctor, patient } = await pair();
      // a rash is not a severe reaction: a warning; vomiting on codeine is an intolerance: information
      await writeRecord(doctor, patient, recordBody({ allergies: 'Penicillin (rash)' }));
      await prescribe(doctor, patient.id, prescriptionBody({ allergies: ['codeine (vomiting)'] }));
      const warned = await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Amoxicillin' }));
      expect(warned.statusCode).toBe(201);
      expect(warned.json().alerts).toEqual([expect.objectContaining({ severity: 'warning', substance: 'Penicillin' })]);
      const informed = await prescribe(
        doctor,
        patient.id,
        prescriptionBody({ prescribedDrug: 'Codeine 30 mg', overrideReason: 'Just in case' }),
      );
      expect(informed.statusCode).toBe(201);
      expect(informed.json().alerts).toEqual([expect.objectContaining({ kind: 'intolerance', severity: 'info' })]);
      const rows = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.patientId, patient.id), eq(auditLog.action, 'override')));
      expect(rows).toEqual([]);
      // an unrelated drug: no alert
      expect((await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Paracetamol' }))).json().alerts).toEqual(
        [],
      );
    });

    it('the Done-when cases: "amoxicilin" read as amoxicillin stops; co-codamol alerts on codeine; ibuprofen meets warfarin on file', async () => {
      const { doctor, patient } = await pair();
      await writeRecord(doctor, patient, recordBody({ allergies: 'Penicillin (anaphylaxis)' }));
      const misspelt = await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'amoxicilin' }));
      expect(misspelt.statusCode).toBe(409);
      expect(OverrideRequired.parse(misspelt.json()).alerts).toContainEqual(
        expect.objectContaining({ severity: 'stop', substance: 'Penicillin', readAs: 'amoxicillin' }),
      );

      const codeine = await pair();
      const coCodamol = await prescribe(
        codeine.doctor,
        codeine.patient.id,
        prescriptionBody({ prescribedDrug: 'Co-codamol 30/500', allergies: ['codeine (rash)'] }),
      );
      expect(coCodamol.statusCode).toBe(201);
      expect(coCodamol.json().alerts).toContainEqual(expect.objectContaining({ kind: 'allergy', substance: 'codeine' }));

      // every prescription on file is an active medication: warfarin, then ibuprofen
      const onWarfarin = await pair();
      expect(
        (await prescribe(onWarfarin.doctor, onWarfarin.patient.id, prescriptionBody({ prescribedDrug: 'Warfarin 5 mg' })))
          .statusCode,
      ).toBe(201);
      const check = DrugAlertResponse.parse(
        (await drugAlerts(onWarfarin.doctor, onWarfarin.patient.id, '?drug=Ibuprofen%20400%20mg')).json(),
      );
      expect(check.activeMedications).toEqual(['Warfarin 5 mg']);
      expect(check.alerts).toContainEqual(expect.objectContaining({ kind: 'interaction', substance: 'Warfarin 5 mg' }));
      const ibuprofen = await prescribe(
        onWarfarin.doctor,
        onWarfarin.patient.id,
        prescriptionBody({ prescribedDrug: 'Ibuprofen 400 mg' }),
      );
      expect(ibuprofen.json().alerts).toEqual(check.alerts);
      // another patient's prescriptions are not this one's medications
      const other = await pair();
      expect((await drugAlerts(other.doctor, other.patient.id, '?drug=Ibuprofen')).json().alerts).toEqual([]);
    });

    it("alerts on the allergies typed in this body and on earlier prescriptions' ones", async () => {
      const { doctor, patient } = await pair();
      let res = await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Ibuprofen', allergies: ['aspirin'] }));
      expect(res.json().alerts).toEqual([
        expect.objectContaining({ substance: 'aspirin', kind: 'allergy', severity: 'warning' }),
      ]);
      res = await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Naproxen' }));
      expect(res.json().alerts).toEqual([expect.objectContaining({ substance: 'aspirin' })]);
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
    it('still alerts on an allergy noted before a thousand later prescriptions with notes (hazard L6)', async () => {
      const { doctor, patient } = await pair();
      const first = await prescribe(
        doctor,
        patient.id,
        prescriptionBody({ prescribedDrug: 'Paracetamol', allergies: ['Penicillin (anaphylaxis)'] }),
      );
      expect(first.statusCode).toBe(201);
      // 1,000 later prescriptions, each noting another allergy: more than a bounded read of the newest holds
      await t.db.db.execute(sql`insert into prescriptions
        (patient_id, doctor_id, prescribed_drug, dosage, administration_route, dosage_frequency, allergies, assigned_by, created_at)
        select patient_id, doctor_id, prescribed_drug, dosage, administration_route, dosage_frequency, array['Latex'],
          assigned_by, created_at + g * interval '1 minute'
        from prescriptions, generate_series(1, 1000) g where id = ${first.json()._id}`);
      const body = DrugAlertResponse.parse((await drugAlerts(doctor, patient.id, '?drug=Amoxicillin')).json());
      expect(body.allergies).toEqual(['Penicillin', 'Latex']);
      expect(body.alerts).toContainEqual(expect.objectContaining({ kind: 'allergy', substance: 'Penicillin', severity: 'stop' }));
    });

    it('reads what a read of the whole history reads, through the indexes (a long history with ties, spellings and notes)', async () => {
      const { doctor, patient } = await pair();
      const first = (await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Paracetamol' }))).json();
      // 600 more: 7 spellings of 4 drugs, many at the same instant (the tie goes to the lower id),
      // and notes on some only, among them one noted once and never again
      await db().execute(sql`insert into prescriptions
        (patient_id, doctor_id, prescribed_drug, dosage, administration_route, dosage_frequency, allergies, assigned_by, created_at)
        select patient_id, doctor_id,
          (array['Warfarin 5 mg', 'warfarin  5 MG', 'Ibuprofen', ' ibuprofen', 'Omeprazole', 'Zopiclone', 'Paracetamol'])[1 + g % 7],
          dosage, administration_route, dosage_frequency,
          case when g = 401 then array['Penicillin (rash)'] when g % 5 = 0 then array['Latex', 'latex '] when g % 3 = 0 then array['Sulfa'] else '{}'::text[] end,
          assigned_by, created_at + (1 + g / 4) * interval '1 minute'
        from prescriptions, generate_series(1, 600) g where id = ${first._id}`);
      const p = prescriptions;
      const everyDrug = await selectRows<{ drug: string }>(
        db(),
        sql`select d.drug from (
          select distinct on (${p.prescribedDrug}) ${p.prescribedDrug} as drug, ${p.createdAt} as at, ${p.id} as id
          from ${p} where ${p.patientId} = ${patient.id}
          order by ${p.prescribedDrug}, ${p.createdAt} asc, ${p.id} asc
        ) d order by d.at asc, d.id asc`,
      );
      expect(await prescribedDrugsOf(db(), patient.id, TODAY)).toEqual(distinctNotes(everyDrug.map((r) => r.drug)));
      expect((await prescribedDrugsOf(db(), patient.id, TODAY)).map((d) => d.toLowerCase()).sort()).toEqual([
        'ibuprofen',
        'omeprazole',
        'paracetamol',
        'warfarin 5 mg',
        'zopiclone',
      ]);
      const everyNote = await selectRows<{ note: string }>(
        db(),
        sql`select distinct a.note from ${p} cross join lateral unnest(${p.allergies}) as a(note) where ${p.patientId} = ${patient.id}`,
      );
      const notes = await allergyNotesOf(db(), patient.id);
      expect(new Set(notes.map((n) => n.key))).toEqual(new Set(everyNote.map((r) => noteKey(r.note.trim()))));
      expect(notes.map((n) => n.text)).toEqual(['Sulfa', 'Latex', 'Penicillin (rash)']);

      // The prescribing context reads all of it in one statement: exactly what the reads above read.
      const at = new Date('2025-03-01T10:00:00Z');
      const entry = (substanceText: string, minutes: number, reviews: string | null) => ({
        patientId: patient.id,
        substanceText,
        type: 'allergy' as const,
        category: 'medication' as const,
        criticality: 'high' as const,
        reactions: [{ manifestation: 'Rash' }],
        clinicalStatus: 'active' as const,
        verificationStatus: 'confirmed' as const,
        reviews,
        recordedById: doctor.id,
        recordedByRole: 'doctor' as const,
        recordedAt: new Date(at.getTime() + minutes * 60_000),
        updatedAt: at,
      });
      await insertAllergies(db(), [entry('Latex', 1, 'latex'), entry('Aspirin', 5, null), entry('Codeine', 5, null)]);
      const context = await prescribingContextOf(db(), doctor.id, patient.id, TODAY);
      expect(context).toBeDefined();
      expect(context!.drugs).toEqual(await prescribedDrugsOf(db(), patient.id, TODAY));
      expect(context!.notes).toEqual(notes);
      const rows = await allergyRowsOf(db(), patient.id);
      expect(context!.allergyRows).toEqual(
        rows.map((r) => Object.fromEntries(Object.keys(ALLERGY_ENTRY_COLUMNS).map((k) => [k, r[k as keyof typeof r]]))),
      );
      // newest first: the two of one instant (in id order), then the older one
      expect(context!.allergyRows.map((r) => r.substanceText).at(-1)).toBe('Latex');
      expect(context!.allergyRows).toHaveLength(3);
      expect(context).toMatchObject({ doctorName: doctor.name, patientName: patient.name });
    });

    it('reads no prescribing context and writes no prescription unless the doctor is assigned when it runs', async () => {
      const { doctor, patient } = await pair();
      const stranger = await account(t, 'doctor');
      expect(await prescribingContextOf(db(), stranger.id, patient.id, TODAY)).toBeUndefined();
      expect(await prescribingContextOf(db(), patient.id, patient.id, TODAY)).toBeUndefined();
      expect(await prescribingContextOf(db(), doctor.id, 'not-a-uuid', TODAY)).toBeUndefined();
      // The assignment ends between the check and the write (a revoke from another request): the
      // write's own guard stops it, and neither the prescription nor its audit rows are written.
      const context = await prescribingContextOf(db(), doctor.id, patient.id, TODAY);
      expect(context).toBeDefined();
      await revokeAssignment(
        db(),
        { actorId: patient.id, actorRole: 'patient', at: t.clock.now(), ip: null },
        doctor.id,
        patient.id,
      );
      const id = randomUUID();
      const write = {
        id,
        patientId: patient.id,
        doctorId: doctor.id,
        prescribedDrug: 'Amoxicillin',
        dosage: '500 mg',
        administrationRoute: 'Oral',
        dosageFrequency: 'Three times a day',
        allergies: ['Penicillin'],
        assignedBy: context!.doctorName,
        endsOn: null,
        longTerm: false,
        override: null,
        uncoded: [],
        actor: { actorId: doctor.id, actorRole: 'doctor' as const, at: t.clock.now(), ip: '127.0.0.1' },
        overrideDetail: 'Benefit outweighs risk (stop alert: Penicillin)',
      };
      expect(await writePrescription(db(), write)).toBeUndefined();
      expect(await db().select().from(prescriptions).where(eq(prescriptions.id, id))).toEqual([]);
      expect(await db().select().from(auditLog).where(eq(auditLog.entityId, id))).toEqual([]);
      // Connected again, the same write goes through with both audit rows, create then override.
      await connect(t, doctor, patient);
      const row = await writePrescription(db(), write);
      expect(row).toMatchObject({ id, allergies: ['Penicillin'], assignedBy: doctor.name, createdAt: write.actor.at });
      const logged = await db().select().from(auditLog).where(eq(auditLog.entityId, id)).orderBy(auditLog.id);
      expect(logged.map((r) => [r.action, r.entity, r.patientId, r.actorId, r.detail])).toEqual([
        ['create', 'prescription', patient.id, doctor.id, null],
        ['override', 'prescription', patient.id, doctor.id, write.overrideDetail],
      ]);
    });

    it('lists each drug on file once, as first written, oldest first, however often it was prescribed', async () => {
      const { doctor, patient } = await pair();
      for (const drug of [
        'Warfarin 5 mg',
        'Ibuprofen 400 mg',
        'warfarin  5 MG',
        ' Ibuprofen 400\tmg ',
        'Warfarin 5 mg',
        'Omeprazole',
      ]) {
        t.clock.advance(60_000);
        expect((await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: drug }))).statusCode).toBe(201);
      }
      const body = DrugAlertResponse.parse((await drugAlerts(doctor, patient.id, '?drug=Paracetamol')).json());
      expect(body.activeMedications).toEqual(['Warfarin 5 mg', 'Ibuprofen 400 mg', 'Omeprazole']);
    });

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
      // the prescription on file has no end: an active medication until stopped
      expect(body.activeMedications).toEqual(['Paracetamol']);
      expect(body.alerts).toEqual([
        expect.objectContaining({ matchedText: 'Amoxicillin', substance: 'Penicillin', kind: 'allergy', severity: 'warning' }),
      ]);

      const typedOnly = (await drugAlerts(doctor, patient.id, '?drug=Ibuprofen&allergies=aspirin')).json();
      expect(typedOnly.alerts).toEqual([expect.objectContaining({ substance: 'aspirin' })]);
      expect((await drugAlerts(doctor, patient.id, '?drug=Paracetamol')).json().alerts).toEqual([]);

      const fresh = await pair();
      expect((await drugAlerts(fresh.doctor, fresh.patient.id, '?drug=Amoxicillin')).json()).toEqual({
        alerts: [],
        allergies: [],
        activeMedications: [],
        uncoded: [],
        omitted: 0,
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
    const stranger = await account(t, 'doctor');
    await read(stranger, created._id); // denied: the refusal's row, naming the stranger

    const rows = await db().select().from(auditLog).where(eq(auditLog.patientId, patient.id)).orderBy(auditLog.id);
    expect(rows.map((r) => [r.actorRole, r.action, r.entity, r.entityId, r.at.toISOString()])).toEqual([
      ['doctor', 'create', 'prescription', created._id, '2025-03-01T12:00:00.000Z'],
      ['patient', 'read', 'prescription', created._id, '2025-03-01T12:00:05.000Z'],
      ['doctor', 'list', 'prescription', null, '2025-03-01T12:00:05.000Z'],
      ['doctor', 'list', 'medical_record', null, '2025-03-01T12:00:05.000Z'],
      ['doctor', 'denied', 'account', null, '2025-03-01T12:00:05.000Z'],
    ]);
    expect(rows.every((r) => r.ip === '127.0.0.1' && r.patientId === patient.id)).toBe(true);
    expect(rows[0].actorId).toBe(doctor.id);
    expect(rows[1].actorId).toBe(patient.id);
    expect(rows[4]).toMatchObject({ actorId: stranger.id, detail: 'GET /prescription/:id' });
  });
});
