import type {
  AllergyIntolerance,
  Bundle,
  DocumentReference,
  Encounter,
  MedicationRequest,
  Observation,
  Patient,
  Practitioner,
  Resource,
} from '@medplum/fhirtypes';
import { eq } from 'drizzle-orm';
import { medicalRecords } from '../../db/schema';
import { CARELOOP_SYSTEMS, humanNameOf } from '../../fhir';
import { newAllergy } from '../../test/allergies';
import { account, connect, prescriptionBody, recordBody, setClock, type Account } from '../../test/clinical';
import { storePdf } from '../../test/files';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';
import { loadR4Definitions, problemsOf } from '../../test/fhir-validation';

// The official R4 StructureDefinitions, checked by a validator CareLoop did not write.
beforeAll(loadR4Definitions);

const DATA_ABSENT_REASON = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';
const NOT_PERFORMED = { system: DATA_ABSENT_REASON, code: 'not-performed', display: 'Not Performed' };
// each parameter under the one label of its vital sign (the record form's, the summary's)
const NEWS2_PARAMETER_LABELS = [
  'Respiratory rate',
  'SpO2',
  'Air or oxygen',
  'Systolic blood pressure',
  'Pulse',
  'Consciousness',
  'Temperature',
];

describe('humanNameOf: structured only when the name splits unambiguously', () => {
  it.each([
    ['Grace Hopper', {}, { text: 'Grace Hopper', given: ['Grace'], family: 'Hopper' }],
    ["Siobhan O'Brien-Kelly", {}, { text: "Siobhan O'Brien-Kelly", given: ['Siobhan'], family: "O'Brien-Kelly" }],
    ['Zoë Ångström', {}, { text: 'Zoë Ångström', given: ['Zoë'], family: 'Ångström' }],
    ['Dr Ada Lovelace', { titled: true }, { text: 'Dr Ada Lovelace', prefix: ['Dr'], given: ['Ada'], family: 'Lovelace' }],
    ['dr. Ada Lovelace', { titled: true }, { text: 'dr. Ada Lovelace', prefix: ['dr.'], given: ['Ada'], family: 'Lovelace' }],
    // a patient's "Dr" is not stripped: three words, so text only
    ['Dr Ada Lovelace', {}, { text: 'Dr Ada Lovelace' }],
    ['Dr. Mary Ann Evans', { titled: true }, { text: 'Dr. Mary Ann Evans', prefix: ['Dr.'] }],
    ['Mary Ann Evans', {}, { text: 'Mary Ann Evans' }],
    ['Cher', {}, { text: 'Cher' }],
    ['J. Smith', {}, { text: 'J. Smith' }],
    ['Test patient 2', {}, { text: 'Test patient 2' }],
    ['Dr', { titled: true }, { text: 'Dr' }],
  ])('%s (%j)', (name, options, expected) => {
    expect(humanNameOf(name, options)).toEqual([expected]);
  });

  it('gives no name for an empty one', () => {
    expect(humanNameOf('   ')).toBeUndefined();
  });
});

describe.each(BACKENDS)('FHIR R4 coded content on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  let doctor: Account, colleague: Account, patient: Account, mononym: Account;
  let partialRecord: string, completeRecord: string, undatedRecord: string;
  const rx: Record<'ongoing' | 'ended' | 'endsToday' | 'stopped', string> = {} as never;
  let allergies: { stated: string; unstated: string };
  let everything: Bundle;

  const get = (who: Account, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
  const post = async (who: Account, url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: bearer(who.token), payload });
    if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json();
  };
  const resources = <T extends Resource>(type: T['resourceType']) =>
    (everything.entry ?? []).map((e) => e.resource!).filter((r): r is T => r.resourceType === type);
  const byId = <T extends Resource>(type: T['resourceType'], id: string) => resources<T>(type).find((r) => r.id === id)!;

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter, { CLINIC_TIME_ZONE: 'Europe/London' });
    doctor = await account(t, 'doctor', { name: 'Dr. Ada Lovelace' });
    colleague = await account(t, 'doctor', { name: 'Mary Ann Evans' });
    patient = await account(t, 'patient', { name: 'Grace Hopper' });
    mononym = await account(t, 'patient', { name: 'Cher' });
    await connect(t, doctor, patient);
    await connect(t, colleague, patient);

    setClock(t, '2025-03-03T11:00:00Z');
    const record = async (gpe: Record<string, unknown>, allergiesText = '') =>
      (await post(doctor, `/medicalhistory/${patient.id}`, recordBody({ gpe, allergies: allergiesText }))).record._id as string;
    // three of NEWS2's seven parameters, on oxygen; a temperature written but implausible
    partialRecord = await record(
      { pulse: 88, oxygenSaturation: 95, supplementalOxygen: true, temperature: '9', observedAt: '2025-03-03T10:15' },
      'penicillin',
    );
    completeRecord = await record({
      bloodPressure: '128/84',
      pulse: 88,
      respiratoryRate: 18,
      temperature: '37.2',
      oxygenSaturation: 97,
      supplementalOxygen: false,
      consciousness: 'A',
      observedAt: '2025-03-03T10:40',
    });
    undatedRecord = await record({ pulse: 70, observedAt: '2025-03-02T23:50' });
    // a row without a readable date of admission (as an old import might have)
    const [row] = await t.db.db.select().from(medicalRecords).where(eq(medicalRecords.id, undatedRecord));
    await t.db.db
      .update(medicalRecords)
      .set({ biodata: { ...row.biodata, dateOfAdmission: '' } })
      .where(eq(medicalRecords.id, undatedRecord));

    rx.ongoing = (await post(doctor, `/prescription/${patient.id}`, prescriptionBody({ longTerm: true })))._id;
    rx.ended = (await post(doctor, `/prescription/${patient.id}`, prescriptionBody({ durationDays: 5 })))._id;
    rx.stopped = (await post(doctor, `/prescription/${patient.id}`, prescriptionBody({ prescribedDrug: 'Ibuprofen' })))._id;
    await post(doctor, `/prescription/${rx.stopped}/stop`, { reason: 'Indigestion on it' });

    allergies = {
      stated: await newAllergy(t, doctor, patient.id, { substance: { text: 'Latex' }, category: 'environment' }),
      unstated: await newAllergy(t, doctor, patient.id, {
        substance: { text: 'Strawberry' },
        category: 'food',
        criticality: 'unable-to-assess',
        reactions: [],
        note: 'Mother says so',
      }),
    };

    await storePdf(t, patient, 'Scan.pdf');

    // today is 2025-03-20 on the clinic's calendar: the five-day course (to 2025-03-07) has ended
    setClock(t, '2025-03-20T12:00:00Z');
    rx.endsToday = (await post(doctor, `/prescription/${patient.id}`, prescriptionBody({ endDate: '2025-03-20' })))._id;

    const res = await get(patient, `/fhir/R4/Patient/${patient.id}/$everything`);
    expect(res.statusCode).toBe(200);
    everything = res.json();
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  it('gives every resource 0 validation errors', () => {
    expect(everything.entry!.length).toBeGreaterThan(10);
    expect([everything, ...everything.entry!.map((e) => e.resource!)].flatMap(problemsOf)).toEqual([]);
  });

  it('identifies the patient and their doctors in CareLoop’s id systems, with the names split only where unambiguous', async () => {
    expect(CARELOOP_SYSTEMS).toMatchObject({
      patientId: 'https://careloop.example/fhir/sid/patient-id',
      doctorId: 'https://careloop.example/fhir/sid/doctor-id',
    });
    expect(byId<Patient>('Patient', patient.id)).toMatchObject({
      identifier: [{ system: CARELOOP_SYSTEMS.patientId, value: patient.id }],
      name: [{ text: 'Grace Hopper', given: ['Grace'], family: 'Hopper' }],
    });
    expect(byId<Practitioner>('Practitioner', doctor.id)).toMatchObject({
      identifier: [{ system: CARELOOP_SYSTEMS.doctorId, value: doctor.id }],
      name: [{ text: 'Dr. Ada Lovelace', prefix: ['Dr.'], given: ['Ada'], family: 'Lovelace' }],
    });
    // three words: which is the family name is not known, so text only
    expect(byId<Practitioner>('Practitioner', colleague.id).name).toEqual([{ text: 'Mary Ann Evans' }]);

    const cher = (await get(mononym, `/fhir/R4/Patient/${mononym.id}`)).json() as Patient;
    expect(cher).toMatchObject({ identifier: [{ system: CARELOOP_SYSTEMS.patientId, value: mononym.id }] });
    expect(cher.name).toEqual([{ text: 'Cher' }]);
    expect(problemsOf(cher)).toEqual([]);
  });

  it('gives each prescription its status on the clinic’s today: stopped (with the reason), completed, active', () => {
    const status = (id: string) => byId<MedicationRequest>('MedicationRequest', id);
    expect(status(rx.stopped)).toMatchObject({ status: 'stopped', statusReason: { text: 'Indigestion on it' } });
    expect(status(rx.ended)).toMatchObject({ status: 'completed' });
    expect(status(rx.ended).statusReason).toBeUndefined();
    // its last day is today: still active
    expect(status(rx.endsToday)).toMatchObject({ status: 'active' });
    expect(status(rx.ongoing)).toMatchObject({ status: 'active', courseOfTherapyType: { coding: [{ code: 'continuous' }] } });
  });

  it('states an allergy’s criticality only where the entry states one, keeping the note', () => {
    expect(byId<AllergyIntolerance>('AllergyIntolerance', allergies.stated)).toMatchObject({
      criticality: 'high',
      code: { text: 'Latex' },
    });
    const unstated = byId<AllergyIntolerance>('AllergyIntolerance', allergies.unstated);
    expect(unstated).not.toHaveProperty('criticality');
    expect(unstated.note).toEqual([{ text: 'Mother says so' }]);
    // the record's note "penicillin" names no reaction: unconfirmed, no criticality, the note as written
    const fromNote = resources<AllergyIntolerance>('AllergyIntolerance').find(
      (a) => a.code?.text?.toLowerCase() === 'penicillin',
    );
    expect(fromNote).toMatchObject({ verificationStatus: { coding: [{ code: 'unconfirmed' }] } });
    expect(fromNote).not.toHaveProperty('criticality');
    expect(fromNote!.note![0].text).toContain('"penicillin"');
  });

  it('says an incomplete NEWS2 is incomplete and names each parameter not measured as not-performed', () => {
    const news2 = byId<Observation>('Observation', `${partialRecord}-news2`);
    expect(news2.interpretation).toEqual([
      { text: expect.stringMatching(/^Incomplete: the full score is at least \d+; not measured: /) },
    ]);
    expect(news2.interpretation![0].text).toContain('Respiratory rate, Systolic blood pressure, Consciousness, Temperature');
    expect(news2.component!.map((c) => c.code.text)).toEqual(NEWS2_PARAMETER_LABELS.map((l) => `${l} (NEWS2 points)`));
    const absent = news2.component!.filter((c) => c.dataAbsentReason);
    expect(absent.map((c) => [c.code.text, c.dataAbsentReason!.coding])).toEqual([
      ['Respiratory rate (NEWS2 points)', [NOT_PERFORMED]],
      ['Systolic blood pressure (NEWS2 points)', [NOT_PERFORMED]],
      ['Consciousness (NEWS2 points)', [NOT_PERFORMED]],
      // written ("9"), but no body temperature: not usable, which is not "not performed"
      ['Temperature (NEWS2 points)', [{ system: DATA_ABSENT_REASON, code: 'error', display: 'Error' }]],
    ]);
    for (const c of absent) expect(c).not.toHaveProperty('valueInteger');
    // what was measured has its points, and the value is their sum
    const points = news2.component!.filter((c) => c.valueInteger !== undefined).map((c) => c.valueInteger!);
    expect(points).toHaveLength(3);
    expect(news2.valueInteger).toBe(points.reduce((a, b) => a + b, 0));
    // the supplemental oxygen scores 2 (RCP 2017)
    expect(news2.component!.find((c) => c.code.text === 'Air or oxygen (NEWS2 points)')!.valueInteger).toBe(2);

    const complete = byId<Observation>('Observation', `${completeRecord}-news2`);
    expect(complete).not.toHaveProperty('interpretation');
    expect(complete.component!.every((c) => c.valueInteger !== undefined && !c.dataAbsentReason)).toBe(true);
  });

  it('records air or supplemental oxygen on the SpO2 as a yes/no, never as a flow or concentration', () => {
    const spo2 = (record: string) => byId<Observation>('Observation', `${record}-59408-5`);
    expect(spo2(partialRecord).component).toEqual([{ code: { text: 'Supplemental oxygen' }, valueBoolean: true }]);
    expect(spo2(completeRecord).component).toEqual([{ code: { text: 'Supplemental oxygen' }, valueBoolean: false }]);
    const loincs = JSON.stringify(resources<Observation>('Observation'));
    expect(loincs).not.toContain('3151-8');
    expect(loincs).not.toContain('3150-0');
  });

  it('starts an encounter on its date of admission, else on the day its signs were measured', () => {
    expect(byId<Encounter>('Encounter', partialRecord).period).toEqual({ start: '2025-03-03' });
    expect(byId<Encounter>('Encounter', undatedRecord).period).toEqual({ start: '2025-03-02' });
  });

  it('types an uploaded PDF with CareLoop’s document code, no LOINC type it cannot know', () => {
    const [doc] = resources<DocumentReference>('DocumentReference');
    expect(doc).toMatchObject({
      type: {
        coding: [{ system: CARELOOP_SYSTEMS.documentType, code: 'uploaded-medical-pdf', display: 'Uploaded medical PDF' }],
        text: 'Uploaded medical PDF',
      },
      category: [{ text: 'Uploaded medical document' }],
      content: [{ attachment: { contentType: 'application/pdf', title: 'Scan.pdf' } }],
    });
    expect(JSON.stringify(doc)).not.toContain('loinc');
  });
});
