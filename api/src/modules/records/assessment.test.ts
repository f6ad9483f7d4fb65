import { Assessment, MedicalRecord, MedicalRecordCreated, WorklistResponse } from '@careloop/shared-contracts';
import { prescriptions } from '../../db/schema';
import { newAllergy } from '../../test/allergies';
import { account, connect, recordBody, type Account } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer } from '../../test/helpers';

/*
 * The clinical assessment over HTTP (api/src/clinical/assessment.ts, api/src/access/assessments.ts):
 * computed on write, answered with the created record, the same one read back; kept current when
 * what it reads changes (allergies, date of birth); the worklist ranks by it.
 */

/** Urosepsis-looking: RR 24 → 2, SpO2 91 → 3, air 0, 98 → 2, 118 → 2, C → 3, 38.6 → 1 = 13. */
const SEPTIC = {
  respiratoryRate: 24,
  oxygenSaturation: 91,
  spo2Scale: 1,
  supplementalOxygen: false,
  bloodPressure: '98/60',
  pulse: 118,
  consciousness: 'C',
  temperature: '38.6',
};
/** All seven, every one scoring 0. */
const WELL = {
  respiratoryRate: 16,
  oxygenSaturation: 98,
  spo2Scale: 1,
  supplementalOxygen: false,
  bloodPressure: '124/80',
  pulse: 80,
  consciousness: 'A',
  temperature: '36.8',
};
/** NEWS2 0 with a level 2 hypoglycaemia: a critical value whatever the score. */
const HYPO = { ...WELL, bloodSugarLevel: '1.9 mmol/L' };
/** NEWS2 5 (RR 22 → 2, pulse 112 → 2, SpO2 95 → 1), no critical value, no infection: urgent. */
const MEDIUM = { ...WELL, respiratoryRate: 22, pulse: 112, oxygenSaturation: 95 };
/** NEWS2 9 (RR 25 → 3, SpO2 93 → 2, systolic 95 → 2, pulse 120 → 2), no critical value. */
const HIGH = { ...WELL, respiratoryRate: 25, oxygenSaturation: 93, bloodPressure: '95/60', pulse: 120 };

describe.each(BACKENDS)('the clinical assessment over HTTP on %s', (backend) => {
  const fixture = appPerFile(backend);
  const t = () => fixture.t;

  /** A record written a few minutes after the previous step (the clock only moves forward). */
  async function create(doctor: Account, patient: Account, over: Parameters<typeof recordBody>[0] = {}) {
    t().clock.advance(5 * 60_000);
    const res = await t().app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody(over),
    });
    expect(res.statusCode).toBe(201);
    return MedicalRecordCreated.parse(res.json());
  }
  async function read(doctor: Account, id: string) {
    const res = await t().app.inject({ method: 'GET', url: `/medicalHistory/${id}`, headers: bearer(doctor.token) });
    expect(res.statusCode).toBe(200);
    return MedicalRecord.parse(res.json());
  }
  async function worklist(doctor: Account) {
    const res = await t().app.inject({ method: 'GET', url: '/doctor/worklist', headers: bearer(doctor.token) });
    expect(res.statusCode).toBe(200);
    return WorklistResponse.parse(res.json()).items;
  }
  async function careOf(body: Record<string, unknown>) {
    const doctor = await account(t(), 'doctor');
    const patient = await account(t(), 'patient', body);
    await connect(t(), doctor, patient);
    return { doctor, patient };
  }

  it('answers the create with the assessment (NEWS2 13 high and possible sepsis: an emergency) and reads back the same one', async () => {
    const { doctor, patient } = await careOf({ name: 'Petra Pyelo', DOB: '1970-05-04' });
    const created = await create(doctor, patient, { title: 'Pyelonephritis', gpe: SEPTIC });
    const { assessment } = created;
    expect(Assessment.parse(assessment)).toEqual(assessment);
    expect(created.record.assessment).toEqual(assessment);
    expect(assessment.acuity).toBe('emergency');
    expect(assessment.reasons).toContain('NEWS2 13 high');
    expect(assessment.reasons).toContain('Possible sepsis');
    expect(assessment.reasons).toContain('Critical: SpO2 91 % on air');
    expect(assessment.reasons).toContain('Critical: new confusion');
    expect(assessment.news2).toMatchObject({ total: 13, complete: true, band: 'high', applicable: true });
    expect(assessment.findings.find((f) => f.kind === 'sepsis')).toMatchObject({
      acuity: 'emergency',
      detail: expect.stringMatching(/NG51/),
    });
    expect(assessment.hasVitals).toBe(true);
    expect(assessment.caveats).toEqual([]);

    const again = await read(doctor, created.record._id);
    expect(again.assessment).toEqual(assessment);
  });

  it('an unknown age is assessed on adult NEWS2 with a caveat, and a pulse of 25 is a critical emergency', async () => {
    const { doctor, patient } = await careOf({ name: 'Ulla Undated' });
    const me = await t().app.inject({ method: 'GET', url: '/patient/me', headers: bearer(patient.token) });
    expect(me.json().patient.DOB).toBeNull();
    const { record, assessment } = await create(doctor, patient, { gpe: { pulse: 25 } });
    expect(assessment.acuity).toBe('emergency');
    expect(assessment.findings).toContainEqual(
      expect.objectContaining({ kind: 'critical', acuity: 'emergency', title: 'Critical: pulse 25 /min' }),
    );
    expect(assessment.reasons[0]).toBe('Critical: pulse 25 /min');
    expect(assessment.caveats).toContain('Age unknown — adult NEWS2 used.');
    // fail safe: the adult score is shown, a lower bound as the other parameters are missing
    expect(assessment.news2).toMatchObject({ complete: false, applicable: true });
    expect((await read(doctor, record._id)).assessment).toEqual(assessment);

    const [row] = await worklist(doctor);
    expect(row).toMatchObject({ patient: patient.id, acuity: 'emergency', latest: { news2: { applicable: true } } });
    expect(row.reasons[0]).toBe('Critical: pulse 25 /min');
  });

  it('a new allergy makes the assessment and the summary out of date: both are recomputed on read, the summary says so', async () => {
    const { doctor, patient } = await careOf({ name: 'Sid Stale', DOB: '1980-01-01' });
    const { record } = await create(doctor, patient, { drug: 'Amoxicillin', gpe: WELL });
    const summarized = await t().app.inject({
      method: 'POST',
      url: `/medicalhistory/summary/${record._id}`,
      headers: bearer(doctor.token),
      payload: {},
    });
    expect(summarized.statusCode).toBe(200);
    const before = await read(doctor, record._id);
    expect(before.summary).toBe(summarized.json().summary);
    expect(before.summary).not.toMatch(/anaphylaxis/i);
    expect(before.summaryInfo).toMatchObject({
      contextVersion: before.assessment.contextVersion,
      rewrittenBy: null,
      regeneratedOutOfDate: false,
      previousGeneratedAt: null,
    });
    expect(before.assessment.medicationAlerts).toEqual([]);

    t().clock.advance(60_000);
    await newAllergy(t(), doctor, patient.id); // a confirmed penicillin allergy with anaphylaxis
    t().clock.advance(60_000);
    const after = await read(doctor, record._id);
    expect(after.assessment.contextVersion).toBeGreaterThan(before.assessment.contextVersion);
    expect(after.assessment.computedAt).toBe(t().clock.now().toISOString());
    // the new entry is read: amoxicillin against a penicillin allergy
    expect(after.assessment.medicationAlerts.length).toBeGreaterThan(0);
    expect(after.assessment.reasons.some((r) => /Drug–allergy/.test(r))).toBe(true);
    expect(after.summaryInfo).toEqual({
      generatedAt: t().clock.now().toISOString(),
      contextVersion: after.assessment.contextVersion,
      rewrittenBy: null,
      regeneratedOutOfDate: true,
      previousGeneratedAt: before.summaryInfo!.generatedAt,
    });
    expect(after.summary).not.toBe(before.summary);
    expect(after.summary).toContain('Penicillin — Anaphylaxis (severe); high criticality; confirmed');
    // stored: the next read answers the same, not regenerated again
    t().clock.advance(60_000);
    const third = await read(doctor, record._id);
    expect(third.summary).toBe(after.summary);
    expect(third.summaryInfo).toEqual(after.summaryInfo);
    expect(third.assessment).toEqual(after.assessment);
  });

  it('the summary reads every drug on file, however long the history: an old one behind 210 newer prescriptions is still checked', async () => {
    const { doctor, patient } = await careOf({ name: 'Lon Ghistory', DOB: '1950-01-01' });
    const base = t().clock.now().getTime();
    const prescription = (drug: string, at: number, allergies: string[] = []) => ({
      patientId: patient.id,
      doctorId: doctor.id,
      prescribedDrug: drug,
      dosage: '5 mg',
      administrationRoute: 'oral',
      dosageFrequency: 'once a day',
      allergies,
      assignedBy: 'Dr Test',
      createdAt: new Date(at),
      longTerm: true,
    });
    await fixture.tdb.adapter.db
      .insert(prescriptions)
      .values([
        prescription('Warfarin', base - 400 * 86_400_000, ['sulfa drugs - rash']),
        ...Array.from({ length: 210 }, (_, i) => prescription('Paracetamol', base - (300 - i) * 86_400_000)),
      ]);
    const { record } = await create(doctor, patient, { drug: 'Ibuprofen', gpe: WELL });
    const res = await t().app.inject({
      method: 'POST',
      url: `/medicalhistory/summary/${record._id}`,
      headers: bearer(doctor.token),
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    const summary: string = res.json().summary;
    expect(summary).toContain('Warfarin');
    expect(summary).toContain('sulfa drugs - rash');
    expect(summary).toContain('Paracetamol');
  });

  it('the worklist ranks by acuity then NEWS2, from the latest observation set, which a record without vitals never replaces', async () => {
    const doctor = await account(t(), 'doctor');
    const patientOf = async (name: string) => {
      const patient = await account(t(), 'patient', { name, DOB: '1970-05-04' });
      await connect(t(), doctor, patient);
      return patient;
    };
    const hypo = await patientOf('Hana Hypo');
    const medium = await patientOf('Mo Medium');
    const high = await patientOf('Hal High');

    const highVitals = await create(doctor, high, { gpe: HIGH });
    expect(highVitals.assessment.news2).toMatchObject({ total: 9, complete: true });
    const hypoRecord = await create(doctor, hypo, { gpe: HYPO });
    expect(hypoRecord.assessment.news2).toMatchObject({ total: 0, complete: true });
    const mediumRecord = await create(doctor, medium, { gpe: MEDIUM });
    expect(mediumRecord.assessment).toMatchObject({ acuity: 'urgent', news2: { total: 5, complete: true } });
    const vitalsAt = t().clock.now().getTime();

    // the NEWS2-9 patient's newest record has no vital sign (a letter)
    const letter = await create(doctor, high, { title: 'Discharge letter' });
    expect(letter.assessment.hasVitals).toBe(false);

    const items = await worklist(doctor);
    expect(items.map((i) => i.name)).toEqual(['Hal High', 'Hana Hypo', 'Mo Medium']);
    const [h, g, m] = items;

    // a critical glucose with NEWS2 0 is an emergency, above NEWS2 5, and says why first
    expect(g).toMatchObject({ acuity: 'emergency', latest: { recordId: hypoRecord.record._id, news2: { total: 0 } } });
    expect(g.reasons[0]).toMatch(/glucose/i);
    expect(g.reasons[0]).toBe('Critical: glucose 1.9 mmol/L');
    expect(m).toMatchObject({ acuity: 'urgent', reasons: ['NEWS2 5 medium'], latest: { news2: { total: 5 } } });

    // the letter does not hide the last observation set: still NEWS2 9 high, still ranked by it
    expect(h).toMatchObject({
      acuity: 'emergency',
      latest: { recordId: highVitals.record._id, recordedAt: highVitals.record.createdAt, news2: { total: 9, band: 'high' } },
      lastVitalsAt: highVitals.record.createdAt,
      lastRecordAt: letter.record.createdAt,
    });
    expect(h.reasons[0]).toBe('NEWS2 9 high');
    expect(new Date(h.lastVitalsAt!).getTime()).toBeLessThan(new Date(h.lastRecordAt!).getTime());
    expect(new Date(h.lastVitalsAt!).getTime()).toBeLessThan(vitalsAt);
  });

  it('a change of the date of birth recomputes the assessment (adult → under 16: no adult tier, the critical value kept)', async () => {
    const { doctor, patient } = await careOf({ name: 'Dora Dated', DOB: '1970-05-04' });
    const { record, assessment } = await create(doctor, patient, { gpe: { ...HIGH, pulse: 25 } });
    // pulse 25 scores 3 where 120 scored 2: NEWS2 10
    expect(assessment.news2).toMatchObject({ total: 10, complete: true, applicable: true });
    expect(assessment.reasons).toContain('NEWS2 10 high');
    expect(assessment.reasons).toContain('Critical: pulse 25 /min');
    expect(assessment.caveats).toEqual([]);
    // unchanged while nothing it reads changes
    t().clock.advance(60_000);
    expect((await read(doctor, record._id)).assessment).toEqual(assessment);

    const dob = new Date(t().clock.now().getTime() - 10 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    const patched = await t().app.inject({
      method: 'PATCH',
      url: '/patient/me',
      headers: bearer(patient.token),
      payload: { DOB: dob },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().patient.DOB).toBe(dob);

    const after = (await read(doctor, record._id)).assessment;
    expect(after.contextVersion).toBeGreaterThan(assessment.contextVersion);
    expect(after.computedAt).not.toBe(assessment.computedAt);
    expect(after.news2).toMatchObject({ applicable: false });
    expect(after.caveats.some((c) => /not validated under 16/.test(c))).toBe(true);
    // no adult NEWS2 tier any more (NEWS2 10 high was one)
    expect(after.reasons.filter((r) => /^NEWS2/.test(r))).toEqual([]);
    // fail safe: the age-independent critical value still alerts
    expect(after.acuity).toBe('emergency');
    expect(after.reasons).toContain('Critical: pulse 25 /min');
  });

  it('pregnancy set by the doctor: NEWS2 kept with the obstetric caveat; the patient reads it; gestation only for a pregnancy', async () => {
    const { doctor, patient } = await careOf({ name: 'Greta Gravid', DOB: '1992-02-02' });
    const { record, assessment } = await create(doctor, patient, { gpe: HIGH });
    expect(assessment.caveats).toEqual([]);
    const unknown = await t().app.inject({ method: 'GET', url: `/pregnancy/${patient.id}`, headers: bearer(patient.token) });
    expect(unknown.json()).toEqual({ status: 'unknown', gestationWeeks: null });

    const refused = await t().app.inject({
      method: 'PUT',
      url: `/pregnancy/${patient.id}`,
      headers: bearer(doctor.token),
      payload: { status: 'not-pregnant', gestationWeeks: 12 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual(expect.any(String));

    const set = await t().app.inject({
      method: 'PUT',
      url: `/pregnancy/${patient.id}`,
      headers: bearer(doctor.token),
      payload: { status: 'pregnant', gestationWeeks: 32 },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ status: 'pregnant', gestationWeeks: 32 });
    const seen = await t().app.inject({ method: 'GET', url: `/pregnancy/${patient.id}`, headers: bearer(patient.token) });
    expect(seen.json()).toEqual({ status: 'pregnant', gestationWeeks: 32 });

    const after = (await read(doctor, record._id)).assessment;
    expect(after.contextVersion).toBeGreaterThan(assessment.contextVersion);
    expect(after.caveats).toEqual([
      'NEWS2 is not validated in pregnancy (32 weeks) — use an obstetric early-warning chart (MEOWS).',
    ]);
    // a caveat adds caution; the alert stays
    expect(after.reasons).toContain('NEWS2 9 high');
    expect(after.acuity).toBe('emergency');
  });
});
