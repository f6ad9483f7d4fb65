import { and, eq, sql } from 'drizzle-orm';
import {
  ALLERGY_NOT_FOUND,
  ALLERGY_NOTE_NOT_FOUND,
  ALLERGY_NOTE_REVIEWED,
  AllergyIntolerance,
  AllergyList,
  STATUS_REASON_REQUIRED,
  REPORT_UNCONFIRMED_ERROR,
} from '@careloop/shared-contracts';
import { selectRows } from '../../adapters/db';
import { allergyEntriesFor } from '../../access';
import { medicationAlerts, readAllergyText } from '../../clinical';
import { auditLog } from '../../db/schema';
import { allergyBody, newAllergy } from '../../test/allergies';
import { account, connect, prescriptionBody, recordBody, setClock, type Account } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer } from '../../test/helpers';

describe.each(BACKENDS)('allergy list on %s', (backend) => {
  const fixture = appPerFile(backend);
  const t = () => fixture.t;
  beforeAll(() => setClock(t(), '2026-03-01T10:00:00Z'));

  const list = (who: Account, patientId: string) =>
    t().app.inject({ method: 'GET', url: `/allergies/${patientId}`, headers: bearer(who.token) });
  const create = (who: Account, patientId: string, payload: unknown) =>
    t().app.inject({ method: 'POST', url: `/allergies/${patientId}`, headers: bearer(who.token), payload: payload as object });
  const update = (who: Account, id: string, payload: unknown) =>
    t().app.inject({ method: 'PUT', url: `/allergy/${id}`, headers: bearer(who.token), payload: payload as object });
  const report = (who: Account, payload: unknown) =>
    t().app.inject({ method: 'POST', url: '/patient/allergies', headers: bearer(who.token), payload: payload as object });
  const writeRecord = (doctor: Account, patient: Account, allergies: string) =>
    t().app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ allergies }),
    });
  const items = async (who: Account, patientId: string) => {
    const res = await list(who, patientId);
    expect(res.statusCode).toBe(200);
    return AllergyList.parse(res.json()).items;
  };
  const allergyRows = async () =>
    Number((await selectRows<{ n: number }>(t().db.db, sql`select count(*)::int as n from allergy_intolerances`))[0].n);
  const auditOf = (patientId: string, action: 'list' | 'create' | 'update') =>
    t()
      .db.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.patientId, patientId), eq(auditLog.entity, 'allergy_intolerance'), eq(auditLog.action, action)));

  async function pair() {
    const doctor = await account(t(), 'doctor', { name: 'Dr Allergy' });
    const patient = await account(t(), 'patient', { name: 'Pat Allergy' });
    await connect(t(), doctor, patient);
    return { doctor, patient };
  }

  it('a doctor adds a confirmed penicillin allergy; the patient and the doctor see it, recorded by and when; audited', async () => {
    const { doctor, patient } = await pair();
    const res = await create(doctor, patient.id, allergyBody({ note: 'Collapsed after IV penicillin, 2019' }));
    expect(res.statusCode).toBe(201);
    const created = AllergyIntolerance.parse(res.json());
    expect(created).toMatchObject({
      patientId: patient.id,
      substance: { text: 'Penicillin' },
      type: 'allergy',
      category: 'medication',
      criticality: 'high',
      reactions: [{ manifestation: 'Anaphylaxis', severity: 'severe' }],
      clinicalStatus: 'active',
      verificationStatus: 'confirmed',
      note: 'Collapsed after IV penicillin, 2019',
      source: 'structured',
      recordedBy: { role: 'doctor', name: 'Dr Allergy' },
      recordedAt: '2026-03-01T10:00:00.000Z',
    });
    for (const who of [patient, doctor]) expect(await items(who, patient.id)).toEqual([created]);
    expect(await auditOf(patient.id, 'create')).toEqual([expect.objectContaining({ entityId: created._id, actorId: doctor.id })]);
    expect((await auditOf(patient.id, 'list')).map((r) => r.actorId).sort()).toEqual([doctor.id, patient.id].sort());
    // THE source of every alert carries it: amoxicillin is stopped
    const allergies = await allergyEntriesFor(t().db.db, patient.id);
    expect(medicationAlerts('amoxicillin', { allergies, activeMedications: [] }).map((a) => a.severity)).toContain('stop');
  });

  it('the api codes the substance from its vocabulary; an unknown one stays uncoded', async () => {
    const { doctor, patient } = await pair();
    const coded = (await create(doctor, patient.id, allergyBody({ substance: { text: 'amoxicillin', code: 'made-up' } }))).json();
    expect(coded.substance).toEqual({ text: 'amoxicillin', code: expect.any(String) });
    expect(coded.substance.code).not.toBe('made-up');
    const uncoded = (await create(doctor, patient.id, allergyBody({ substance: { text: 'Zorblax dust' } }))).json();
    expect(uncoded.substance).toEqual({ text: 'Zorblax dust' });
  });

  it('bad input answers 400 and writes nothing', async () => {
    const { doctor, patient } = await pair();
    const before = await allergyRows();
    const bad = [
      allergyBody({ criticality: 'extreme' as never }),
      allergyBody({ substance: { text: '   ' } }),
      allergyBody({ verificationStatus: 'delabelled' as never }),
      allergyBody({ reactions: [{ manifestation: 'rash', severity: 'fatal' as never }] }),
      { ...allergyBody(), recordedBy: 'someone else' },
      allergyBody({ substance: { text: 'x'.repeat(201) } }),
      allergyBody({ reviews: '' }),
    ];
    for (const payload of bad) {
      const res = await create(doctor, patient.id, payload);
      expect(res.statusCode).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
    const id = await newAllergy(t(), doctor, patient.id);
    const badUpdate = await update(doctor, id, { ...allergyBody(), reviews: 'penicillin' });
    expect(badUpdate.statusCode).toBe(400);
    expect((await list(doctor, 'not-a-uuid')).statusCode).toBe(400);
    expect(await allergyRows()).toBe(before + 1);
  });

  it('a doctor edits, confirms and refutes (delabels); who recorded it and when stay; each write audited', async () => {
    const { doctor, patient } = await pair();
    const reported = (await report(patient, allergyBody({ verificationStatus: 'unconfirmed', criticality: 'low' }))).json();
    expect(reported.recordedBy).toEqual({ role: 'patient', name: 'Pat Allergy' });
    setClock(t(), '2026-03-01T10:05:00Z');
    const confirmed = await update(doctor, reported._id, allergyBody({ verificationStatus: 'confirmed', criticality: 'high' }));
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({
      _id: reported._id,
      verificationStatus: 'confirmed',
      criticality: 'high',
      recordedBy: { role: 'patient', name: 'Pat Allergy' },
      recordedAt: reported.recordedAt,
    });
    // refuting (delabelling) needs its reason: without one, 400 and nothing changes
    const bare = await update(doctor, reported._id, allergyBody({ verificationStatus: 'refuted' }));
    expect(bare.statusCode).toBe(400);
    expect(JSON.stringify(bare.json())).toContain(STATUS_REASON_REQUIRED);
    const inactive = await update(doctor, reported._id, allergyBody({ clinicalStatus: 'inactive' }));
    expect(inactive.statusCode).toBe(400);
    expect((await items(patient, patient.id)).map((a) => a.verificationStatus)).toEqual(['confirmed']);
    const refuted = await update(
      doctor,
      reported._id,
      allergyBody({ verificationStatus: 'refuted', statusReason: 'Negative oral challenge' }),
    );
    expect(refuted.json()).toMatchObject({ verificationStatus: 'refuted', statusReason: 'Negative oral challenge' });
    expect((await items(patient, patient.id)).map((a) => a.verificationStatus)).toEqual(['refuted']);
    expect((await auditOf(patient.id, 'update')).map((r) => [r.entityId, r.actorId, r.detail])).toEqual([
      [reported._id, doctor.id, null],
      [reported._id, doctor.id, 'Negative oral challenge'],
    ]);
    setClock(t(), '2026-03-01T10:00:00Z');
  });

  it('a patient reports one: unconfirmed, recorded by the patient; they cannot confirm it or write for others', async () => {
    const { doctor, patient } = await pair();
    const res = await report(patient, {
      substance: { text: 'Peanuts' },
      type: 'allergy',
      category: 'food',
      reactions: [{ manifestation: 'Hives' }],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      verificationStatus: 'unconfirmed',
      clinicalStatus: 'active',
      criticality: 'unable-to-assess',
      recordedBy: { role: 'patient', name: 'Pat Allergy' },
    });
    const before = await allergyRows();
    const confirming = await report(patient, allergyBody({ verificationStatus: 'confirmed' }));
    expect(confirming.statusCode).toBe(400);
    expect(confirming.json().error).toContain(REPORT_UNCONFIRMED_ERROR);
    expect((await report(patient, allergyBody({ verificationStatus: 'refuted' }))).statusCode).toBe(400);
    // confirming or refuting is a doctor's write
    expect((await update(patient, res.json()._id, allergyBody({ verificationStatus: 'confirmed' }))).statusCode).toBe(403);
    expect((await update(patient, res.json()._id, allergyBody({ verificationStatus: 'refuted' }))).statusCode).toBe(403);
    expect((await create(patient, patient.id, allergyBody())).statusCode).toBe(403);
    expect((await report(doctor, allergyBody({ verificationStatus: 'unconfirmed' }))).statusCode).toBe(403);
    expect(await allergyRows()).toBe(before);
    expect((await items(doctor, patient.id)).map((a) => a.verificationStatus)).toEqual(['unconfirmed']);
  });

  it("someone else's patient or entry answers 404: unassigned doctor, other patient, revoked doctor", async () => {
    const { doctor, patient } = await pair();
    const stranger = await account(t(), 'doctor');
    const otherPatient = await account(t(), 'patient');
    const id = await newAllergy(t(), doctor, patient.id);
    const before = await allergyRows();
    for (const res of [
      await list(stranger, patient.id),
      await create(stranger, patient.id, allergyBody()),
      await update(stranger, id, allergyBody({ verificationStatus: 'refuted', statusReason: 'Negative oral challenge' })),
      await list(otherPatient, patient.id),
      await update(doctor, '00000000-0000-4000-8000-000000000000', allergyBody()),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await update(stranger, id, allergyBody())).json().error).toBe(ALLERGY_NOT_FOUND);
    // the patient ends the doctor's access
    const revoke = await t().app.inject({
      method: 'DELETE',
      url: `/patient/doctors/${doctor.id}`,
      headers: bearer(patient.token),
    });
    expect(revoke.statusCode).toBe(200);
    // the doctor knew the patient: told that their access ended, not "not found"
    expect((await list(doctor, patient.id)).statusCode).toBe(403);
    expect((await create(doctor, patient.id, allergyBody())).statusCode).toBe(403);
    expect(
      (await update(doctor, id, allergyBody({ verificationStatus: 'refuted', statusReason: 'Negative oral challenge' })))
        .statusCode,
    ).toBe(403);
    expect(await allergyRows()).toBe(before);
    expect((await items(patient, patient.id)).map((a) => a.verificationStatus)).toEqual(['confirmed']);
  });

  it('free text → entries → reviewed: a record note counts as unconfirmed until a doctor refutes it', async () => {
    const { doctor, patient } = await pair();
    expect((await writeRecord(doctor, patient, 'Penicillin (rash)')).statusCode).toBe(201);
    const read = readAllergyText('Penicillin (rash)');
    expect(read.length).toBeGreaterThan(0);
    const fromText = await items(patient, patient.id);
    expect(fromText).toHaveLength(read.length);
    expect(fromText[0]).toMatchObject({
      patientId: patient.id,
      verificationStatus: 'unconfirmed',
      source: 'record',
      sourceText: 'Penicillin (rash)',
      recordedBy: { role: 'doctor', name: 'Dr Allergy' },
    });
    expect(fromText[0]._id).toBeUndefined();
    // every alert's source sees it, unconfirmed
    expect(await allergyEntriesFor(t().db.db, patient.id)).toEqual(read);

    // the doctor refutes it (delabel): a structured entry reviewing the note
    const refute = await create(doctor, patient.id, {
      ...allergyBody({
        substance: fromText[0].substance,
        verificationStatus: 'refuted',
        statusReason: 'Negative oral challenge',
        reactions: [],
      }),
      reviews: 'penicillin  (RASH)',
    });
    expect(refute.statusCode).toBe(201);
    expect(refute.json()).toMatchObject({ verificationStatus: 'refuted', source: 'structured', sourceText: 'penicillin (rash)' });
    const after = await items(doctor, patient.id);
    expect(after.map((a) => [a.source, a.verificationStatus])).toEqual([['structured', 'refuted']]);
    const entries = await allergyEntriesFor(t().db.db, patient.id);
    expect(entries.map((e) => e.verificationStatus)).toEqual(['refuted']);
    expect(medicationAlerts('amoxicillin', { allergies: entries, activeMedications: [] })).toEqual([]);
    // typed again in a form, the reviewed note stays reviewed
    expect((await allergyEntriesFor(t().db.db, patient.id, ['PENICILLIN (rash)'])).length).toBe(1);

    // a refuted penicillin allergy raises nothing
    const alerts = await t().app.inject({
      method: 'GET',
      url: `/drug-alerts/${patient.id}?drug=amoxicillin`,
      headers: bearer(doctor.token),
    });
    expect(alerts.statusCode).toBe(200);
    expect(JSON.stringify(alerts.json().alerts).toLowerCase()).not.toContain('penicillin');

    // the same note cannot be reviewed twice; a note the patient does not have cannot be reviewed
    const before = await allergyRows();
    const again = await create(doctor, patient.id, { ...allergyBody(), reviews: 'Penicillin (rash)' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(ALLERGY_NOTE_REVIEWED);
    const unknown = await create(doctor, patient.id, { ...allergyBody(), reviews: 'sulfa' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe(ALLERGY_NOTE_NOT_FOUND);
    expect(await allergyRows()).toBe(before);

    // a new, different note counts again
    expect((await writeRecord(doctor, patient, 'Penicillin (anaphylaxis)')).statusCode).toBe(201);
    expect((await items(patient, patient.id)).filter((a) => a.source === 'record')).toHaveLength(
      readAllergyText('Penicillin (anaphylaxis)').length,
    );
  });

  it("a prescription's allergy list is read too; a confirmed review keeps it alerting as a structured entry", async () => {
    const { doctor, patient } = await pair();
    const rx = await t().app.inject({
      method: 'POST',
      url: `/prescription/${patient.id}`,
      headers: bearer(doctor.token),
      payload: prescriptionBody({ allergies: ['sulfa drugs'] }),
    });
    expect(rx.statusCode).toBe(201);
    const [entry] = await items(doctor, patient.id);
    expect(entry).toMatchObject({ source: 'prescription', sourceText: 'sulfa drugs', verificationStatus: 'unconfirmed' });
    const confirm = await create(doctor, patient.id, {
      ...allergyBody({ substance: entry.substance, verificationStatus: 'confirmed', reactions: [] }),
      reviews: 'sulfa drugs',
    });
    expect(confirm.statusCode).toBe(201);
    const entries = await allergyEntriesFor(t().db.db, patient.id);
    expect(entries.map((e) => e.verificationStatus)).toEqual(['confirmed']);
  });

  it('reviewing one substance of a note that names several keeps the others, unconfirmed, in the same write', async () => {
    const { doctor, patient } = await pair();
    const note = 'Penicillin (anaphylaxis), latex';
    const read = readAllergyText(note);
    expect((await writeRecord(doctor, patient, note)).statusCode).toBe(201);
    const before = await allergyRows();
    const res = await create(doctor, patient.id, {
      ...allergyBody({
        substance: { text: 'Penicillin' },
        verificationStatus: 'refuted',
        statusReason: 'Negative oral challenge',
        reactions: [],
      }),
      reviews: note,
    });
    expect(res.statusCode).toBe(201);
    const penicillinCode = res.json().substance.code as string | undefined;
    const others = read.filter((e) =>
      penicillinCode && e.substance.code ? e.substance.code !== penicillinCode : !/penicillin/i.test(e.substance.text),
    );
    expect(await allergyRows()).toBe(before + 1 + others.length);
    const listed = await items(doctor, patient.id);
    expect(listed.every((a) => a.source === 'structured')).toBe(true);
    expect(listed.filter((a) => a.verificationStatus === 'unconfirmed').map((a) => a.substance.text)).toEqual(
      others.map((e) => e.substance.text),
    );
    expect((await auditOf(patient.id, 'create')).length).toBe(1 + others.length);
  });

  it("suggests the vocabulary's substance names to either role; a blank query is 400", async () => {
    const { doctor, patient } = await pair();
    for (const who of [doctor, patient]) {
      const res = await t().app.inject({ method: 'GET', url: '/allergy-substances?q=penic', headers: bearer(who.token) });
      expect(res.statusCode).toBe(200);
      expect(res.json().items[0]).toMatchObject({ code: 'class:penicillins', kind: 'class' });
    }
    const augmentin = await t().app.inject({ method: 'GET', url: '/allergy-substances?q=Augm', headers: bearer(doctor.token) });
    expect(augmentin.json().items.map((i: { name: string }) => i.name)).toEqual(['co-amoxiclav']);
    const blank = await t().app.inject({ method: 'GET', url: '/allergy-substances?q=%20', headers: bearer(doctor.token) });
    expect(blank.statusCode).toBe(400);
    expect((await t().app.inject({ method: 'GET', url: '/allergy-substances?q=penic' })).statusCode).toBe(401);
  });

  it('a note\'s wording never deletes an allergy: "No other allergies." keeps the anaphylaxis; a cue marks only what it governs', async () => {
    const { doctor, patient } = await pair();
    expect((await writeRecord(doctor, patient, 'Penicillin (anaphylaxis). No other allergies.')).statusCode).toBe(201);
    expect((await writeRecord(doctor, patient, 'Latex. Negative challenge to cefuroxime')).statusCode).toBe(201);
    const res = await list(doctor, patient.id);
    const body = AllergyList.parse(res.json());
    // every note verbatim, and the entries read from them
    expect(body.notes.map((n) => n.text).sort()).toEqual([
      'Latex. Negative challenge to cefuroxime',
      'Penicillin (anaphylaxis). No other allergies.',
    ]);
    const bySubstance = Object.fromEntries(body.items.map((e) => [e.substance.text.toLowerCase(), e]));
    expect(bySubstance.penicillin).toMatchObject({
      verificationStatus: 'unconfirmed',
      reactions: [expect.objectContaining({ manifestation: 'anaphylaxis' })],
    });
    expect(bySubstance.penicillin.review).toBeUndefined();
    expect(bySubstance.latex.review).toBeUndefined();
    expect(bySubstance.cefuroxime.review).toMatch(/negative challenge/i);
    // the stop stands: co-amoxiclav without a reason is refused
    const refused = await t().app.inject({
      method: 'POST',
      url: `/prescription/${patient.id}`,
      headers: bearer(doctor.token),
      payload: prescriptionBody({ prescribedDrug: 'Co-amoxiclav 625 mg' }),
    });
    expect(refused.statusCode).toBe(409);
    // cefuroxime still alerts (unconfirmed, to review), with the doubt in its message
    const check = await t().app.inject({
      method: 'GET',
      url: `/drug-alerts/${patient.id}?drug=Cefuroxime`,
      headers: bearer(doctor.token),
    });
    expect(JSON.stringify(check.json().alerts)).toMatch(/negative challenge/i);
    // FHIR says it too
    const fhir = await t().app.inject({
      method: 'GET',
      url: `/fhir/R4/AllergyIntolerance?patient=${patient.id}`,
      headers: bearer(patient.token),
    });
    const notes = (fhir.json().entry as { resource: { code: { text: string }; note: { text: string }[] } }[]).map((e) => [
      e.resource.code.text.toLowerCase(),
      e.resource.note.map((n) => n.text).join(' | '),
    ]);
    expect(notes).toContainEqual(['cefuroxime', expect.stringMatching(/To review: .*negative challenge/i)]);
    expect(notes).toContainEqual(['penicillin', expect.not.stringMatching(/To review/)]);

    // the same statement copied into a later note is listed once; both notes are listed verbatim
    expect((await writeRecord(doctor, patient, 'penicillin - anaphylaxis')).statusCode).toBe(201);
    const again = AllergyList.parse((await list(doctor, patient.id)).json());
    expect(again.notes.map((n) => n.text)).toContain('penicillin - anaphylaxis');
    expect(again.items.filter((e) => e.substance.text.toLowerCase() === 'penicillin')).toHaveLength(1);
  });
});
