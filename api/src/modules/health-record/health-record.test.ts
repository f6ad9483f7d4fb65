import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { newAllergy } from '../../test/allergies';
import { account, connect, prescriptionBody, recordBody, setClock } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer, type TestApp } from '../../test/helpers';
import { pageCount, pdfText } from '../../test/pdf-text';

describe.each(BACKENDS)('GET /patient/health-record.pdf on %s', (backend) => {
  let t: TestApp;
  // Sydney: 22:30 UTC is the next morning there, so the file's date is the clinic's.
  const fixture = appPerFile(backend, { CLINIC_TIME_ZONE: 'Australia/Sydney' });
  beforeAll(() => ({ t } = fixture));

  const pdfOf = (token?: string) =>
    t.app.inject({ method: 'GET', url: '/patient/health-record.pdf', headers: token ? bearer(token) : {} });

  const dataRows = (patientId: string, actorId: string) =>
    t.db.db
      .select({ action: auditLog.action, entity: auditLog.entity })
      .from(auditLog)
      .where(and(eq(auditLog.patientId, patientId), eq(auditLog.actorId, actorId)));

  it("answers the patient's own record as a PDF attachment, not cached, audited", async () => {
    const doctor = await account(t, 'doctor', { name: 'Dr Grace Hopper' });
    const patient = await account(t, 'patient', { name: 'Ada Lovelace' });
    await connect(t, doctor, patient);
    setClock(t, '2026-03-01T09:00:00Z');
    const record = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title: 'Chest pain', gpe: { pulse: 72, bloodPressure: '128/84' } }),
    });
    expect(record.statusCode).toBe(201);
    const prescription = await t.app.inject({
      method: 'POST',
      url: `/prescription/${patient.id}`,
      headers: bearer(doctor.token),
      payload: prescriptionBody({ prescribedDrug: 'Amoxicillin' }),
    });
    expect(prescription.statusCode).toBe(201);

    setClock(t, '2026-03-01T22:30:00Z');
    const before = (await dataRows(patient.id, patient.id)).length;
    const res = await pdfOf(patient.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="careloop-health-record-2026-03-02.pdf"');
    expect(res.headers['cache-control']).toBe('no-store');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    expect(pageCount(pdf)).toBeGreaterThanOrEqual(1);
    const text = pdfText(pdf);
    expect(text).toContain('Name: Ada Lovelace');
    expect(text).toContain("Times are in Australia/Sydney (the clinic's time zone).");
    expect(text).toContain('Chest pain — 1 Mar 2026');
    expect(text).toContain('Doctor: Dr Grace Hopper');
    expect(text).toContain('Pulse: 72 /min');
    // people's units and names, not UCUM codes or code identifiers
    expect(text).toContain('Blood pressure: 128/84 mmHg');
    expect(text).toContain('Respiratory rate: not measured');
    expect(text).toMatch(/NEWS2: \d+ — Incomplete: the full score is at least \d+; not measured: .*Respiratory rate/);
    expect(text).not.toMatch(/respirationRate|mm\[Hg\]/);
    expect(text).toContain('Amoxicillin — 1 Mar 2026, 20:00');
    expect(text).toContain('Generated 2 Mar 2026, 09:30');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    // the patient's own read of everything they hold, one list row per kind of data
    const after = await dataRows(patient.id, patient.id);
    expect(after.length).toBeGreaterThan(before);
    expect(after.slice(before).map((r) => r.action)).toEqual(expect.arrayContaining(['list']));
    expect(after.slice(before).map((r) => r.entity)).toEqual(expect.arrayContaining(['medical_record', 'prescription']));
  });

  it('prints in a font that has every glyph it uses (≥, ≤, °, µ, accents) and dates as "12 Mar 1985"', async () => {
    setClock(t, '2026-11-27T08:30:00Z');
    const doctor = await account(t, 'doctor', { name: 'Dr Zoë Ångström' });
    const patient = await account(t, 'patient', { name: 'José Müller', DOB: '1985-03-12' });
    await connect(t, doctor, patient);
    const record = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      // fever with a respiratory rate of 22 or more and a systolic of 100 or less: qSOFA 2/3
      payload: recordBody({ title: 'Fever', gpe: { temperature: '38.6', respiratoryRate: 24, bloodPressure: '95/60' } }),
    });
    expect(record.statusCode).toBe(201);
    // the summary carries the sepsis screen's criteria, "(≥ 22)" and "(≤ 100)"
    const summary = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/summary/${record.json().record._id}`,
      headers: bearer(doctor.token),
      payload: {},
    });
    expect(summary.statusCode).toBe(200);
    const prescription = await t.app.inject({
      method: 'POST',
      url: `/prescription/${patient.id}`,
      headers: bearer(doctor.token),
      payload: prescriptionBody({ prescribedDrug: 'Cyanocobalamin', dosage: '1000 µg' }),
    });
    expect(prescription.statusCode).toBe(201);

    const res = await pdfOf(patient.token);
    expect(res.statusCode).toBe(200);
    // pdfkit embeds only the glyphs used: the two fonts stay small
    expect(res.rawPayload.length).toBeLessThan(150_000);
    expect(res.rawPayload.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    const text = pdfText(res.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain('Name: José Müller');
    expect(text).toContain('Date of birth: 12 Mar 1985');
    expect(text).toContain('Dr Zoë Ångström');
    expect(text).toContain('respiratory rate 24 /min (≥ 22)');
    expect(text).toContain('systolic 95 mmHg (≤ 100)');
    expect(text).toContain('38.6 °C');
    expect(text).toContain('1000 µg');
    expect(text).toContain('Fever — 27 Nov 2026');
    expect(text).toMatch(/Cyanocobalamin — 27 Nov 2026, 19:30/);
    // no glyph the font lacks, and no ISO date for a person to read
    expect(text).not.toMatch(/\uFFFD|"e |"d /);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it("gives each record's stored assessment: the acuity in words, the reasons and the caveats (hazard H26)", async () => {
    const doctor = await account(t, 'doctor');
    const patient = await account(t, 'patient', { name: 'Lin Wei' });
    const dated = await account(t, 'patient', { name: 'Omar Said', DOB: '1980-05-01' });
    await connect(t, doctor, patient);
    await connect(t, doctor, dated);
    for (const who of [patient, dated]) {
      const created = await t.app.inject({
        method: 'POST',
        url: `/medicalhistory/${who.id}`,
        headers: bearer(doctor.token),
        payload: recordBody({ title: 'Collapse', gpe: { pulse: 25 } }),
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().assessment).toMatchObject({
        acuity: 'emergency',
        reasons: ['Critical: pulse 25 /min', 'NEWS2 at least 3 (incomplete), single parameter scoring 3 (pulse)'],
      });
    }
    const calm = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title: 'Paperwork' }),
    });
    expect(calm.statusCode).toBe(201);

    const text = pdfText((await pdfOf(patient.token)).rawPayload).replace(/[ \t]+/g, ' ');
    expect(text).toMatch(
      /Collapse — .*\n(.*\n)*?Assessment\nAcuity: Emergency\nCritical: pulse 25 \/min\nNEWS2 at least 3 \(incomplete\), single parameter scoring 3 \(pulse\)\n/,
    );
    expect(text).toContain('Caution: Age unknown — adult NEWS2 used.');
    // a record without findings: no alert, and still the caveat
    expect(text).toMatch(/Paperwork — .*\n(.*\n)*?Assessment\nAcuity: No alert\nCaution: Age unknown/);
    // never the stored object as JSON
    expect(text).not.toMatch(/"acuity"|contextVersion|emergency/);

    // a patient whose age is known: the same acuity and reason, no caveat
    const theirs = pdfText((await pdfOf(dated.token)).rawPayload);
    expect(theirs).toContain('Acuity: Emergency');
    expect(theirs).toContain('Critical: pulse 25 /min');
    expect(theirs).not.toContain('Caution:');
  });

  it('prints the assessment as it is now: an allergy added after the record brings its medication alert', async () => {
    const doctor = await account(t, 'doctor');
    const patient = await account(t, 'patient', { name: 'Sara Lind', DOB: '1975-02-03' });
    await connect(t, doctor, patient);
    const created = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title: 'Sore throat', drug: 'Amoxicillin' }),
    });
    expect(created.statusCode).toBe(201);
    const before = pdfText((await pdfOf(patient.token)).rawPayload);
    expect(before).toContain('Acuity: No alert');
    expect(before).not.toMatch(/Drug–allergy/);

    await newAllergy(t, doctor, patient.id, { substance: { text: 'Penicillin' } });
    const after = pdfText((await pdfOf(patient.token)).rawPayload);
    expect(after).toMatch(/Assessment\nAcuity: Urgent\nDrug–allergy [^\n]*\(stop\)\n/);
  });

  it('lists an allergy stated only in a record\'s note as unconfirmed, never "No allergy recorded" (hazard L4)', async () => {
    const doctor = await account(t, 'doctor');
    const patient = await account(t, 'patient', { name: 'Noor Haddad' });
    await connect(t, doctor, patient);
    const created = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title: 'Rash', allergies: 'Penicillin - anaphylaxis' }),
    });
    expect(created.statusCode).toBe(201);
    // a long line wraps: read as one
    const text = pdfText((await pdfOf(patient.token)).rawPayload).replace(/\s+/g, ' ');
    expect(text).not.toContain('No allergy recorded');
    // the note once, as written, then what was read from it
    expect(text).toMatch(
      /Not yet reviewed; as written in a medical record: "Penicillin - anaphylaxis" Penicillin \(status: active, unconfirmed; criticality: high; reaction: anaphylaxis\)/,
    );
  });

  it("never holds another patient's data: each patient gets their own; doctors and strangers are refused", async () => {
    const doctor = await account(t, 'doctor');
    const patient = await account(t, 'patient', { name: 'Jonas Weber' });
    const other = await account(t, 'patient', { name: 'Mira Stone' });
    await connect(t, doctor, patient);
    await connect(t, doctor, other);
    const created = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title: 'Only Jonas' }),
    });
    expect(created.statusCode).toBe(201);

    const theirs = await pdfOf(other.token);
    expect(theirs.statusCode).toBe(200);
    const text = pdfText(theirs.rawPayload);
    expect(text).toContain('Mira Stone');
    expect(text).not.toContain('Jonas');
    expect(text).not.toContain('Only Jonas');
    expect(await dataRows(patient.id, other.id)).toEqual([]);

    // patient only: a doctor reads a patient's record through the app or FHIR, not this route
    expect((await pdfOf(doctor.token)).statusCode).toBe(403);
    const anonymous = await pdfOf();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: expect.any(String) });
  });
});
