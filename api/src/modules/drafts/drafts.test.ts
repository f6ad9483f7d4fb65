import { DRAFT_CHANGED, DraftAnswer, DraftList, DRAFT_MAX_CHARS, YOUR_ACCESS_ENDED } from '@careloop/shared-contracts';
import { account, connect, prescriptionBody, recordBody, type Account } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer, type TestApp } from '../../test/helpers';

describe.each(BACKENDS)('drafts on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t } = fixture));

  const as = (who: Account, method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });
  const save = (who: Account, form: string, patientId: string, values: object, step = 0) =>
    as(who, 'PUT', `/doctor/drafts/${form}/${patientId}`, { values, step });
  const list = async (who: Account) => {
    const res = await as(who, 'GET', '/doctor/drafts');
    expect(res.statusCode).toBe(200);
    return DraftList.parse(res.json()).drafts;
  };
  const draftOf = async (who: Account, form: string, patientId: string) => {
    const res = await as(who, 'GET', `/doctor/drafts/${form}/${patientId}`);
    expect(res.statusCode).toBe(200);
    return DraftAnswer.parse(res.json()).draft;
  };
  const pair = async () => {
    const doctor = await account(t, 'doctor', { name: 'Ada Grey' });
    const patient = await account(t, 'patient', { name: 'Maria Lopez', DOB: '1985-03-12' });
    await connect(t, doctor, patient);
    return { doctor, patient };
  };

  it('keeps what was typed and the step, replaces it on the next save, and lists it newest first without values', async () => {
    const { doctor, patient } = await pair();
    const other = await account(t, 'patient', { name: 'Omar Haddad' });
    await connect(t, doctor, other);
    expect(await list(doctor)).toEqual([]);
    expect(await draftOf(doctor, 'medical-record', patient.id)).toBeNull();

    const values = { medicalHistory: { title: 'Chest pain', biodata: { modeOfAdmission: 'Emergency' } }, half: '3.' };
    expect((await save(doctor, 'medical-record', patient.id, values, 2)).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await save(doctor, 'prescription', other.id, { prescribedDrug: 'Amoxi' })).statusCode).toBe(200);
    t.clock.advance(60_000);
    const later = { ...values, medicalHistory: { ...values.medicalHistory, title: 'Chest pain on exertion' } };
    const saved = await save(doctor, 'medical-record', patient.id, later, 4);
    expect(saved.json()).toEqual({ savedAt: t.clock.now().toISOString() });

    expect(await list(doctor)).toEqual([
      { form: 'medical-record', patientId: patient.id, step: 4, savedAt: t.clock.now().toISOString() },
      { form: 'prescription', patientId: other.id, step: 0, savedAt: expect.any(String) },
    ]);
    expect(await draftOf(doctor, 'medical-record', patient.id)).toMatchObject({ step: 4, values: later });
    expect(await draftOf(doctor, 'prescription', patient.id)).toBeNull();
  });

  it('sending the form deletes its draft with it; a refused send keeps it', async () => {
    const { doctor, patient } = await pair();
    await save(doctor, 'medical-record', patient.id, { medicalHistory: { title: 'x' } }, 7);
    await save(doctor, 'prescription', patient.id, { prescribedDrug: 'Metformin' });

    // A stop alert without a reason writes nothing: the draft stays.
    const refused = await as(
      doctor,
      'POST',
      `/medicalhistory/${patient.id}`,
      recordBody({ allergies: 'Penicillin (anaphylaxis)', drug: 'Amoxicillin' }),
    );
    expect(refused.statusCode).toBe(409);
    expect(await draftOf(doctor, 'medical-record', patient.id)).not.toBeNull();

    expect((await as(doctor, 'POST', `/medicalhistory/${patient.id}`, recordBody())).statusCode).toBe(201);
    expect(await draftOf(doctor, 'medical-record', patient.id)).toBeNull();
    expect((await list(doctor)).map((d) => d.form)).toEqual(['prescription']);
    expect((await as(doctor, 'POST', `/prescription/${patient.id}`, prescriptionBody())).statusCode).toBe(201);
    expect(await list(doctor)).toEqual([]);
  });

  it('a save based on a draft that changed since (another tab) is refused, never replacing it; left unbased it replaces', async () => {
    const { doctor, patient } = await pair();
    const put = (values: object, basedOn?: string | null) =>
      as(doctor, 'PUT', `/doctor/drafts/medical-record/${patient.id}`, {
        values,
        step: 0,
        ...(basedOn !== undefined ? { basedOn } : {}),
      });
    const first = await put({ title: 'tab A' }, null);
    expect(first.statusCode).toBe(200);
    const seenByBoth = first.json().savedAt as string;
    t.clock.advance(1000);
    const tabB = await put({ title: 'tab B, newer' }, seenByBoth);
    expect(tabB.statusCode).toBe(200);
    t.clock.advance(1000);
    // tab A still bases its save on what it saw: refused, tab B's draft stays
    const stale = await put({ title: 'tab A, older' }, seenByBoth);
    expect([stale.statusCode, stale.json().error]).toEqual([409, DRAFT_CHANGED]);
    expect((await put({ title: 'expects none' }, null)).statusCode).toBe(409);
    expect(await draftOf(doctor, 'medical-record', patient.id)).toMatchObject({ values: { title: 'tab B, newer' } });
    // the doctor chose tab A's version
    expect((await put({ title: 'tab A, kept' })).statusCode).toBe(200);
    expect(await draftOf(doctor, 'medical-record', patient.id)).toMatchObject({ values: { title: 'tab A, kept' } });
  });

  it('Discard deletes it; discarding what is not there is no error', async () => {
    const { doctor, patient } = await pair();
    await save(doctor, 'prescription', patient.id, { dosage: '1 g' });
    expect((await as(doctor, 'DELETE', `/doctor/drafts/prescription/${patient.id}`)).statusCode).toBe(204);
    expect(await draftOf(doctor, 'prescription', patient.id)).toBeNull();
    expect((await as(doctor, 'DELETE', `/doctor/drafts/prescription/${patient.id}`)).statusCode).toBe(204);
  });

  it('only its author reaches a draft: another doctor, a patient and a stranger are refused and see nothing', async () => {
    const { doctor, patient } = await pair();
    await save(doctor, 'medical-record', patient.id, { secret: 'typed by Ada' }, 1);
    const colleague = await account(t, 'doctor', { name: 'Ben Okafor' });
    // Not assigned: as if the patient did not exist.
    expect((await as(colleague, 'GET', `/doctor/drafts/medical-record/${patient.id}`)).statusCode).toBe(404);
    expect((await save(colleague, 'medical-record', patient.id, { x: 1 })).statusCode).toBe(404);
    // Assigned too: their own (empty) draft, never Ada's.
    await connect(t, colleague, patient);
    expect(await draftOf(colleague, 'medical-record', patient.id)).toBeNull();
    expect(await list(colleague)).toEqual([]);
    // Discarding one's own never touches another doctor's.
    expect((await as(colleague, 'DELETE', `/doctor/drafts/medical-record/${patient.id}`)).statusCode).toBe(204);
    expect(await draftOf(doctor, 'medical-record', patient.id)).toMatchObject({ values: { secret: 'typed by Ada' } });
    // A patient has no drafts endpoints.
    expect((await as(patient, 'GET', '/doctor/drafts')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/doctor/drafts' })).statusCode).toBe(401);
  });

  it("ending the access deletes the doctor's drafts of that patient; the doctor is told why, not 'not found'", async () => {
    const { doctor, patient } = await pair();
    const other = await account(t, 'patient', { name: 'Omar Haddad' });
    await connect(t, doctor, other);
    await save(doctor, 'medical-record', patient.id, { medicalHistory: { title: 'NEWS2 13' } }, 5);
    await save(doctor, 'prescription', other.id, { prescribedDrug: 'Metformin' });

    expect((await as(patient, 'DELETE', `/patient/doctors/${doctor.id}`)).statusCode).toBe(200);
    expect((await list(doctor)).map((d) => d.patientId)).toEqual([other.id]);
    const read = await as(doctor, 'GET', `/doctor/drafts/medical-record/${patient.id}`);
    expect([read.statusCode, read.json().error]).toEqual([403, YOUR_ACCESS_ENDED]);
    const write = await save(doctor, 'medical-record', patient.id, { medicalHistory: { title: 'still typing' } }, 5);
    expect([write.statusCode, write.json().error]).toEqual([403, YOUR_ACCESS_ENDED]);
    // Connected again later: the old draft did not come back with the access.
    await connect(t, doctor, patient);
    expect(await draftOf(doctor, 'medical-record', patient.id)).toBeNull();
  });

  it('bad input is refused and nothing is written', async () => {
    const { doctor, patient } = await pair();
    const bad = [
      ['unknown form', () => save(doctor, 'referral', patient.id, {})],
      ['not an id', () => save(doctor, 'prescription', 'not-a-uuid', {})],
      ['values not an object', () => as(doctor, 'PUT', `/doctor/drafts/prescription/${patient.id}`, { values: [1], step: 0 })],
      ['negative step', () => save(doctor, 'prescription', patient.id, {}, -1)],
      ['fractional step', () => save(doctor, 'prescription', patient.id, {}, 1.5)],
      [
        'extra key',
        () => as(doctor, 'PUT', `/doctor/drafts/prescription/${patient.id}`, { values: {}, step: 0, patientId: 'x' }),
      ],
      [
        'basedOn not an instant',
        () => as(doctor, 'PUT', `/doctor/drafts/prescription/${patient.id}`, { values: {}, step: 0, basedOn: 'yesterday' }),
      ],
      ['too large', () => save(doctor, 'prescription', patient.id, { text: 'x'.repeat(DRAFT_MAX_CHARS) })],
      ['NUL in a value', () => save(doctor, 'prescription', patient.id, { nested: { text: 'a\u0000b' } })],
      ['NUL in a key', () => save(doctor, 'prescription', patient.id, { 'a\u0000': 'b' })],
      ['lone surrogate', () => save(doctor, 'prescription', patient.id, { list: ['\ud800'] })],
    ] as const;
    for (const [why, send] of bad) {
      const res = await send();
      expect([why, res.statusCode, typeof res.json().error]).toEqual([why, 400, 'string']);
    }
    expect(await list(doctor)).toEqual([]);
  });
});
