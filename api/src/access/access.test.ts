import { sql } from 'drizzle-orm';
import { selectRows } from '../adapters/db';
import { AuditPage, MedicalFilesResponse, UploadUrlResponse } from '@careloop/shared-contracts';
import { account, connect, prescriptionBody, recordBody, setClock, type Account } from '../test/clinical';
import { local, PDF } from '../test/files';
import { appPerFile, BACKENDS, bearer, countRows, type TestApp, type TestDb } from '../test/helpers';

/*
 * The access layer seen from a patient's access history (GET /patient/audit): every read of their
 * data names them, whichever route and whatever query it came through.
 */
describe.each(BACKENDS)('the access layer on %s', (backend) => {
  let t: TestApp;
  let tdb: TestDb;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t, tdb } = fixture));

  const get = (who: Account, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
  const history = async (patient: Account) => {
    const res = await get(patient, '/patient/audit?limit=100');
    expect(res.statusCode).toBe(200);
    // The data-access rows only: the account's own security log (its signup's 'email-verify') is not what these tests watch.
    return AuditPage.parse(res.json())
      .items.filter((e) => e.kind === 'access')
      .map((e) => `${e.actorName} ${e.action} ${e.entity}`);
  };

  it("writes a doctor's list without patientId into the history of each patient listed, and no one else's", async () => {
    setClock(t, '2025-04-01T09:00:00Z');
    const doctor = await account(t, 'doctor', { name: 'Dr Lis Ting' });
    const [ann, bob, cal, stranger] = await Promise.all(
      ['Ann', 'Bob', 'Cal', 'Stranger'].map((name) => account(t, 'patient', { name })),
    );
    await connect(t, doctor, ann);
    await connect(t, doctor, bob);
    await connect(t, doctor, cal); // assigned, but nothing of theirs is listed
    for (const p of [ann, bob]) {
      t.clock.advance(1000);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/medicalhistory/${p.id}`,
            headers: bearer(doctor.token),
            payload: recordBody(),
          })
        ).statusCode,
      ).toBe(201);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/prescription/${p.id}`,
            headers: bearer(doctor.token),
            payload: prescriptionBody(),
          })
        ).statusCode,
      ).toBe(201);
    }
    const before = { ann: await history(ann), bob: await history(bob) };

    const records = await get(doctor, '/medicalhistories');
    expect(records.statusCode).toBe(200);
    expect(records.json().total).toBe(2);
    expect((await get(doctor, '/prescription')).json().total).toBe(2);

    for (const [p, was] of [
      [ann, before.ann],
      [bob, before.bob],
    ] as const) {
      expect(await history(p)).toEqual(['Dr Lis Ting list prescription', 'Dr Lis Ting list medical_record', ...was]);
    }
    expect(await history(cal)).toEqual([]);
    expect(await history(stranger)).toEqual([]);

    // A page names only the patients whose rows it holds (newest first: Bob's).
    await get(doctor, '/medicalhistories?limit=1');
    expect((await history(bob))[0]).toBe('Dr Lis Ting list medical_record');
    expect((await history(ann))[0]).toBe('Dr Lis Ting list prescription');
  });

  it('still answers 404, and writes only the refusal, for a patient the caller may not see', async () => {
    const doctor = await account(t, 'doctor');
    const patient = await account(t, 'patient');
    const other = await account(t, 'patient');
    const audit = () => countRows(tdb.adapter, 'audit_log');
    const before = await audit();
    for (const [who, url] of [
      [doctor, `/medicalhistories?patientId=${patient.id}`],
      [doctor, `/prescription?patientId=${patient.id}`],
      [doctor, `/medical-record?patientId=${patient.id}`],
      [doctor, `/drug-alerts/${patient.id}?drug=aspirin`],
      [other, `/medicalhistories?patientId=${patient.id}`],
      [other, `/medical-record?patientId=${patient.id}`],
    ] as const) {
      const res = await get(who, url);
      expect([url, res.statusCode, res.json()]).toEqual([url, 404, { error: 'Patient not found' }]);
    }
    // nothing but the refusals themselves, each naming who asked and for which patient
    const denied = await selectRows<{ actor_id: string; patient_id: string; detail: string }>(
      tdb.adapter.db,
      sql`select actor_id, patient_id, detail from audit_log where action = 'denied' order by id desc limit 6`,
    );
    expect(denied.reverse()).toEqual([
      { actor_id: doctor.id, patient_id: patient.id, detail: 'GET /medicalhistories' },
      { actor_id: doctor.id, patient_id: patient.id, detail: 'GET /prescription' },
      { actor_id: doctor.id, patient_id: patient.id, detail: 'GET /medical-record' },
      { actor_id: doctor.id, patient_id: patient.id, detail: 'GET /drug-alerts/:patientId' },
      { actor_id: other.id, patient_id: patient.id, detail: 'GET /medicalhistories' },
      { actor_id: other.id, patient_id: patient.id, detail: 'GET /medical-record' },
    ]);
    expect(await audit()).toBe(before + 6);
  });

  describe('file downloads (local disk)', () => {
    async function storedFile(patient: Account) {
      const upload = await get(patient, `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=ecg.pdf`);
      const { uploadUrl } = UploadUrlResponse.parse(upload.json());
      const put = await t.app.inject({
        method: 'PUT',
        url: local(uploadUrl),
        headers: { 'content-type': 'application/pdf' },
        payload: PDF,
      });
      expect(put.statusCode).toBe(200);
    }
    const listed = async (who: Account, query = '') =>
      MedicalFilesResponse.parse((await get(who, `/medical-record${query}`)).json());

    it("appear in the patient's access history as a read by whoever the URL was issued to", async () => {
      setClock(t, '2025-04-02T09:00:00Z');
      const doctor = await account(t, 'doctor', { name: 'Dr Down Load' });
      const patient = await account(t, 'patient', { name: 'Pat File' });
      await connect(t, doctor, patient);
      await storedFile(patient);

      const [url] = (await listed(doctor, `?patientId=${patient.id}`)).presignedUrl;
      expect(new URL(url).searchParams.get('by')).toBe(`doctor.${doctor.id}`);
      const download = await t.app.inject({ method: 'GET', url: local(url) });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload).toEqual(PDF);
      expect((await history(patient)).slice(0, 2)).toEqual(['Dr Down Load read medical_file', 'Dr Down Load list medical_file']);

      const [own] = (await listed(patient)).presignedUrl;
      expect((await t.app.inject({ method: 'GET', url: local(own) })).statusCode).toBe(200);
      expect((await history(patient))[0]).toBe('Pat File read medical_file');
    });

    it('refuse a URL whose issuer was changed or removed, writing nothing', async () => {
      const doctor = await account(t, 'doctor');
      const patient = await account(t, 'patient');
      await connect(t, doctor, patient);
      await storedFile(patient);
      const [url] = (await listed(doctor, `?patientId=${patient.id}`)).presignedUrl;
      const before = await countRows(tdb.adapter, 'audit_log');

      const forged = new URL(url);
      forged.searchParams.set('by', `patient.${patient.id}`);
      const stripped = new URL(url);
      stripped.searchParams.delete('by');
      const smuggled = new URL(stripped);
      smuggled.searchParams.set('name', `${stripped.searchParams.get('name')}\ndoctor.${doctor.id}`);
      for (const u of [forged, stripped, smuggled]) {
        const res = await t.app.inject({ method: 'GET', url: local(u.toString()) });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'Invalid or missing signature' });
      }
      expect(await countRows(tdb.adapter, 'audit_log')).toBe(before);
    });
  });

  it('audits reminders with the patient they concern: create, list and cancel', async () => {
    setClock(t, '2025-04-03T09:00:00Z');
    const doctor = await account(t, 'doctor', { name: 'Dr Remi Nder' });
    const patient = await account(t, 'patient', { name: 'Pat Remind' });
    const other = await account(t, 'patient');
    await connect(t, doctor, patient);
    const created = await t.app.inject({
      method: 'POST',
      url: '/doctor/reminder',
      headers: bearer(doctor.token),
      payload: {
        to: patient.email,
        subject: 'Blood test',
        text: 'Please book it.',
        startDate: '2025-04-10T09:00:00.000Z',
        intervalDays: 0,
      },
    });
    expect(created.statusCode).toBe(201);
    expect((await get(doctor, '/doctor/reminders')).statusCode).toBe(200);
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/doctor/reminders/${created.json()._id}`,
      headers: bearer(doctor.token),
    });
    expect(cancelled.statusCode).toBe(200);

    expect(await history(patient)).toEqual([
      'Dr Remi Nder update reminder',
      'Dr Remi Nder list reminder',
      'Dr Remi Nder create reminder',
    ]);
    expect(await history(other)).toEqual([]);
  });
});
