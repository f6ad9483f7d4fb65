import { and, eq } from 'drizzle-orm';
import { WorklistResponse } from '@careloop/shared-contracts';
import { auditLog } from '../../db/schema';
import { account, connect, recordBody, type Account } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer } from '../../test/helpers';

/** All seven NEWS2 parameters, septic-looking: RR 28 → 3, SpO2 90 → 3, air 0, 88 → 3, 128 → 2, C → 3, 39.4 → 2 = 16. */
const SEPTIC = {
  respiratoryRate: 28,
  oxygenSaturation: 90,
  spo2Scale: 1,
  supplementalOxygen: false,
  bloodPressure: '88/50',
  pulse: 128,
  consciousness: 'C',
  temperature: '39.4',
};
/** All seven, well: every parameter 0 but the pulse of 92 → 1. */
const WELL = {
  ...SEPTIC,
  respiratoryRate: 16,
  oxygenSaturation: 98,
  bloodPressure: '124/80',
  pulse: 92,
  consciousness: 'A',
  temperature: '36.8',
};
/** Consciousness not recorded: "at least 1". */
const PARTIAL = { ...WELL, consciousness: undefined };

describe.each(BACKENDS)('GET /doctor/worklist on %s', (backend) => {
  const fixture = appPerFile(backend);
  const t = () => fixture.t;

  const worklist = async (who: Account) => {
    const res = await t().app.inject({ method: 'GET', url: '/doctor/worklist', headers: bearer(who.token) });
    expect(res.statusCode).toBe(200);
    return WorklistResponse.parse(res.json()).items;
  };
  /** A record written `minutes` after the previous step (the clock only moves forward: sessions stay valid). */
  const record = async (doctor: Account, patient: Account, gpe: Record<string, unknown>, minutes = 10) => {
    t().clock.advance(minutes * 60_000);
    const res = await t().app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ gpe }),
    });
    expect(res.statusCode).toBe(201);
    return res.json().record._id as string;
  };
  async function patientOf(doctor: Account, name: string, DOB = '1970-05-04') {
    const patient = await account(t(), 'patient', { name, DOB });
    await connect(t(), doctor, patient);
    return patient;
  }

  it('lists only assigned patients, most at risk first, with the score, change and time of the last record', async () => {
    const doctor = await account(t(), 'doctor', { name: 'Dr Worklist' });
    const well = await patientOf(doctor, 'Wanda Well');
    const septic = await patientOf(doctor, 'Sam Septic');
    await patientOf(doctor, 'Nora None');
    const partial = await patientOf(doctor, 'Pia Partial');
    // Another doctor's patient with the highest score of all is never on this list.
    const other = await account(t(), 'doctor');
    const stranger = await patientOf(other, 'Stan Stranger');
    await record(other, stranger, SEPTIC);

    await record(doctor, well, WELL);
    await record(doctor, septic, WELL);
    const latestSeptic = await record(doctor, septic, SEPTIC);
    const septicAt = t().clock.now().toISOString();
    await record(doctor, partial, PARTIAL);

    const items = await worklist(doctor);
    expect(items.map((i) => i.name)).toEqual(['Sam Septic', 'Pia Partial', 'Nora None', 'Wanda Well']);
    expect(items.map((i) => i.patient)).not.toContain(stranger.id);
    const [s, p, n, w] = items;
    expect(s).toEqual({
      patient: septic.id,
      name: 'Sam Septic',
      DOB: '1970-05-04',
      email: septic.email,
      // the acuity of the latest observation set, and why (reasons[0]): sepsis and critical values above the score
      acuity: 'emergency',
      reasons: [
        'Possible sepsis',
        'Critical: systolic 88 mmHg',
        'Critical: SpO2 90 % on air',
        'Critical: new confusion',
        'NEWS2 16 high',
      ],
      latest: {
        recordId: latestSeptic,
        recordedAt: septicAt,
        news2: { total: 16, complete: true, band: 'high', singleParameterThree: true, applicable: true },
      },
      change: 15,
      lastRecordAt: septicAt,
      lastVitalsAt: septicAt,
    });
    // incomplete: a lower bound, the missing parameter named, no band, no change claimed
    expect(p.latest).toMatchObject({ news2: { total: 1, complete: false }, missing: ['consciousness'] });
    expect(p.latest?.news2.band).toBeUndefined();
    expect(p.change).toBeNull();
    expect(p).toMatchObject({ acuity: 'review', reasons: ['NEWS2 incomplete (at least 1)'] });
    // no record: unknown, ranked above a complete low score; no vitals is a reason to review, never reassurance
    expect(n).toMatchObject({
      name: 'Nora None',
      acuity: 'review',
      reasons: ['No vital signs recorded'],
      latest: null,
      change: null,
      lastRecordAt: null,
      lastVitalsAt: null,
    });
    // one record: no previous, no change
    expect(w).toMatchObject({
      acuity: 'review',
      reasons: ['NEWS2 1 low'],
      latest: { news2: { total: 1, complete: true, band: 'low' } },
      change: null,
    });
  });

  it('the change is latest − previous of the two newest records (an older third ignored); "no change" is 0', async () => {
    const doctor = await account(t(), 'doctor');
    const patient = await patientOf(doctor, 'Cleo Change');
    await record(doctor, patient, SEPTIC);
    await record(doctor, patient, WELL);
    await record(doctor, patient, { ...WELL, pulse: 120 }); // pulse 120 → 2: total 2
    let [item] = await worklist(doctor);
    expect(item.latest?.news2.total).toBe(2);
    expect(item.change).toBe(1);
    await record(doctor, patient, { ...WELL, pulse: 120 });
    [item] = await worklist(doctor);
    expect(item.change).toBe(0);
    expect(item.lastRecordAt).toBe(t().clock.now().toISOString());
  });

  it('a weight and a height written after a septic set of observations leave the patient at the top with that score (hazard H47)', async () => {
    const doctor = await account(t(), 'doctor');
    const well = await patientOf(doctor, 'Aaron Well');
    await record(doctor, well, WELL);
    const weighed = await patientOf(doctor, 'Wendy Weighed');
    const septic = await record(doctor, weighed, SEPTIC);
    // two later visits that only weighed and measured her: no set of observations
    await record(doctor, weighed, { weight: 61.5 });
    const lastVisit = await record(doctor, weighed, { weight: 60, height: 165 });
    const [first, second] = await worklist(doctor);
    expect(first.name).toBe('Wendy Weighed');
    expect(first.latest).toMatchObject({ recordId: septic, news2: { total: 16, complete: true, band: 'high' } });
    expect(first.acuity).toBe('emergency');
    expect(first.lastRecordAt).not.toBe(first.lastVitalsAt); // the weigh-in is her last record, not her last vitals
    expect(second.name).toBe('Aaron Well');
    const stored = await t().app.inject({ method: 'GET', url: `/medicalHistory/${lastVisit}`, headers: bearer(doctor.token) });
    expect(stored.json().assessment.hasVitals).toBe(false);
  });

  it('a doctor with no patients gets an empty list; a released patient disappears', async () => {
    const doctor = await account(t(), 'doctor');
    expect(await worklist(doctor)).toEqual([]);
    const patient = await patientOf(doctor, 'Rex Released');
    await record(doctor, patient, SEPTIC);
    expect((await worklist(doctor)).map((i) => i.patient)).toEqual([patient.id]);
    const revoked = await t().app.inject({
      method: 'DELETE',
      url: `/patient/doctors/${doctor.id}`,
      headers: bearer(patient.token),
    });
    expect(revoked.statusCode).toBe(200);
    expect(await worklist(doctor)).toEqual([]);
  });

  it('audits a list of records for each patient whose records it read, none for a patient without', async () => {
    const doctor = await account(t(), 'doctor');
    const seen = await patientOf(doctor, 'Ada Audited');
    const unseen = await patientOf(doctor, 'Bo Blank');
    await record(doctor, seen, WELL);
    const rows = (patientId: string) =>
      t()
        .db.db.select()
        .from(auditLog)
        .where(and(eq(auditLog.patientId, patientId), eq(auditLog.action, 'list'), eq(auditLog.actorId, doctor.id)));
    const before = (await rows(seen.id)).length;
    await worklist(doctor);
    expect((await rows(seen.id)).length).toBe(before + 1);
    expect(await rows(unseen.id)).toEqual([]);
  });

  it('is for doctors only (403 for a patient, 401 without a token)', async () => {
    const patient = await account(t(), 'patient');
    const asPatient = await t().app.inject({ method: 'GET', url: '/doctor/worklist', headers: bearer(patient.token) });
    expect(asPatient.statusCode).toBe(403);
    expect((await t().app.inject({ method: 'GET', url: '/doctor/worklist' })).statusCode).toBe(401);
  });
});
