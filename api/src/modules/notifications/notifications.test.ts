import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { NotificationPage, type Notification } from '@careloop/shared-contracts';
import { notify, notifierFor } from '../../access';
import { selectRows } from '../../adapters/db';
import { createMailer, type Mailer } from '../../adapters/mail';
import { mailOutbox, notifications } from '../../db/schema';
import { createSecretBox, loadEncryptionKey } from '../../lib/secret-box';
import { account, connect, prescriptionBody, recordBody, type Account } from '../../test/clinical';
import {
  appPerFile,
  BACKENDS,
  bearer,
  createTestApp,
  createTestDb,
  readOutbox,
  testConfig,
  type OutboxMessage,
  type TestApp,
  type TestDb,
} from '../../test/helpers';

const inbox = async (t: TestApp, who: Account, query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/${who.role}/notifications${query}`, headers: bearer(who.token) });
  expect(res.statusCode).toBe(200);
  return NotificationPage.parse(res.json());
};
const unread = async (t: TestApp, who: Account) =>
  (await t.app.inject({ method: 'GET', url: `/${who.role}/notifications/unread`, headers: bearer(who.token) })).json()
    .unread as number;

/** The mails to `to` whose subject starts "CareLoop: " and is not a security notice or a verification. */
const mailsTo = async (t: TestApp, to: string): Promise<OutboxMessage[]> =>
  (await readOutbox(t)).filter((m) => m.headers.to === to && !/verify|two-factor/i.test(m.headers.subject));

describe.each(BACKENDS)('notifications on %s', (backend) => {
  let t: TestApp;
  let tdb: TestDb;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t, tdb } = fixture));

  const requestPatient = (doctor: Account, patient: Account) =>
    t.app.inject({
      method: 'POST',
      url: '/doctor/requestPatient',
      headers: bearer(doctor.token),
      payload: { email: patient.email },
    });
  const requestDoctor = (patient: Account, doctor: Account) =>
    t.app.inject({
      method: 'POST',
      url: '/patient/requestDoctor',
      headers: bearer(patient.token),
      payload: { email: doctor.email },
    });
  async function answer(who: Account, action: 'accept' | 'reject') {
    const [pending] = (
      await t.app.inject({ method: 'GET', url: `/${who.role}/receivedRequests`, headers: bearer(who.token) })
    ).json();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/${who.role}/responseRequest/${pending._id}`,
      headers: bearer(who.token),
      payload: { action },
    });
    expect(res.statusCode).toBe(200);
  }
  const people = async () => ({
    doctor: await account(t, 'doctor', { name: 'Ada Grey' }),
    patient: await account(t, 'patient', { name: 'Maria Lopez', DOB: '1985-03-12' }),
  });

  it("a doctor's request: the patient's inbox and e-mail name the doctor; the acceptance tells the doctor who, the e-mail does not", async () => {
    const { doctor, patient } = await people();
    expect(await unread(t, patient)).toBe(0);
    expect((await requestPatient(doctor, patient)).statusCode).toBe(201);

    const mine = await inbox(t, patient);
    expect(mine.unread).toBe(1);
    expect(mine.items).toEqual([
      expect.objectContaining({
        kind: 'request-received',
        person: { name: 'Ada Grey', email: doctor.email, DOB: null },
        entityId: null,
        read: false,
      }),
    ]);
    const [received] = await mailsTo(t, patient.email);
    expect(received.headers.subject).toBe('CareLoop: Dr Ada Grey asked to connect with you');
    expect(received.text).toContain(`${t.config.webOrigin}/login/patient`);
    expect(received.text).toContain(`${t.config.webOrigin}/patient/notifications/settings`);

    await answer(patient, 'accept');
    const theirs = await inbox(t, doctor);
    expect(theirs.items).toEqual([
      expect.objectContaining({
        kind: 'request-accepted',
        person: { name: 'Maria Lopez', email: patient.email, DOB: '1985-03-12' },
        read: false,
      }),
    ]);
    const [accepted] = await mailsTo(t, doctor.email);
    expect(accepted.headers.subject).toBe('CareLoop: A patient accepted your connection request');
    // an e-mail to a doctor never names the patient: the inbox, after sign-in, does
    expect(accepted.text).not.toContain('Maria');
    expect(accepted.text).not.toContain(patient.email);
    expect(accepted.text).toContain(`${t.config.webOrigin}/login/doctor`);
  });

  it('a refused request names only the address the sender typed; a sender withdrawing tells nobody', async () => {
    const { doctor, patient } = await people();
    expect((await requestDoctor(patient, doctor)).statusCode).toBe(201);
    expect((await inbox(t, doctor)).items.map((n) => n.kind)).toEqual(['request-received']);
    // the doctor learns the patient's name and address, as the received list shows them, not the date of birth
    expect((await inbox(t, doctor)).items[0].person).toEqual({ name: 'Maria Lopez', email: patient.email, DOB: null });
    await answer(doctor, 'reject');
    expect((await inbox(t, patient)).items).toEqual([
      expect.objectContaining({ kind: 'request-declined', person: { name: '', email: doctor.email, DOB: null } }),
    ]);
    const [declined] = await mailsTo(t, patient.email);
    expect(declined.headers.subject).toBe(`CareLoop: Your connection request to ${doctor.email} was declined`);

    // the sender cancels their own request: neither side is told
    const other = await account(t, 'patient');
    expect((await requestDoctor(other, doctor)).statusCode).toBe(201);
    const [sent] = (await t.app.inject({ method: 'GET', url: '/patient/sentRequests', headers: bearer(other.token) })).json();
    const cancelled = await t.app.inject({
      method: 'PATCH',
      url: `/patient/responseRequest/${sent._id}`,
      headers: bearer(other.token),
      payload: { action: 'reject' },
    });
    expect(cancelled.statusCode).toBe(200);
    expect((await inbox(t, other)).items).toEqual([]);
    expect((await inbox(t, doctor)).items.map((n) => n.kind)).toEqual(['request-received', 'request-received']);
  });

  it("a patient ending access tells the doctor, naming the patient as the doctor knew them; a doctor's release tells nobody", async () => {
    const { doctor, patient } = await people();
    await connect(t, doctor, patient);
    const ended = await t.app.inject({ method: 'DELETE', url: `/patient/doctors/${doctor.id}`, headers: bearer(patient.token) });
    expect(ended.statusCode).toBe(200);
    // later changes of the patient's profile are not the doctor's to learn
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: '/patient/me',
      headers: bearer(patient.token),
      payload: { name: 'Maria Lopez-Vidal' },
    });
    expect(renamed.statusCode).toBe(200);
    const [n] = (await inbox(t, doctor)).items;
    expect(n).toMatchObject({ kind: 'access-ended', person: { name: 'Maria Lopez', email: patient.email, DOB: '1985-03-12' } });
    const [mail] = await mailsTo(t, doctor.email);
    expect(mail.headers.subject).toBe('CareLoop: A patient ended your access to their records');
    expect(mail.text).not.toContain('Maria');

    const other = await account(t, 'patient');
    await connect(t, doctor, other);
    const released = await t.app.inject({ method: 'DELETE', url: `/doctor/patients/${other.id}`, headers: bearer(doctor.token) });
    expect(released.statusCode).toBe(200);
    expect((await inbox(t, other)).items).toEqual([]);
    expect((await inbox(t, doctor)).items).toHaveLength(1);
  });

  it('a new record or prescription tells the patient; the e-mail names the doctor and nothing clinical', async () => {
    const { doctor, patient } = await people();
    await connect(t, doctor, patient);
    const record = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title: 'Suspected appendicitis', allergies: 'Penicillin (anaphylaxis)' }),
    });
    expect(record.statusCode).toBe(201);
    t.clock.advance(60_000); // the inbox is newest first
    const rx = await t.app.inject({
      method: 'POST',
      url: `/prescription/${patient.id}`,
      headers: bearer(doctor.token),
      payload: prescriptionBody({ prescribedDrug: 'Metformin' }),
    });
    expect(rx.statusCode).toBe(201);

    const { items } = await inbox(t, patient);
    expect(items.map((n) => [n.kind, n.entityId])).toEqual([
      ['new-prescription', rx.json()._id],
      ['new-record', record.json().record._id],
    ]);
    const mails = await mailsTo(t, patient.email);
    expect(mails.map((m) => m.headers.subject)).toEqual([
      'CareLoop: You have a new medical record from Dr Ada Grey',
      'CareLoop: You have a new prescription from Dr Ada Grey',
    ]);
    for (const m of mails) {
      expect(m.text).toMatch(/Sign in to CareLoop to read it/);
      for (const clinical of ['appendicitis', 'Penicillin', 'anaphylaxis', 'Metformin']) expect(m.text).not.toContain(clinical);
    }

    // a create refused (a stop alert with no reason) writes no notification and no e-mail
    const before = (await mailsTo(t, patient.email)).length;
    const refused = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title: 'Follow-up', drug: 'Amoxicillin' }),
    });
    expect(refused.statusCode).toBe(409);
    expect((await inbox(t, patient)).total).toBe(2);
    expect(await mailsTo(t, patient.email)).toHaveLength(before);
  });

  describe('reading and marking', () => {
    it('lists newest first, pages, marks one and then all read', async () => {
      const { doctor, patient } = await people();
      await connect(t, doctor, patient);
      for (const drug of ['Paracetamol', 'Ibuprofen', 'Codeine']) {
        t.clock.advance(60_000);
        const res = await t.app.inject({
          method: 'POST',
          url: `/prescription/${patient.id}`,
          headers: bearer(doctor.token),
          payload: prescriptionBody({ prescribedDrug: drug }),
        });
        expect(res.statusCode).toBe(201);
      }
      const first = await inbox(t, patient, '?page=1&limit=2');
      expect(first).toMatchObject({ page: 1, limit: 2, total: 3, unread: 3 });
      const second = await inbox(t, patient, '?page=2&limit=2');
      expect(second.items).toHaveLength(1);
      const all = [...first.items, ...second.items];
      expect(all.map((n) => n.createdAt)).toEqual([...all.map((n) => n.createdAt)].sort().reverse());

      const markOne = await t.app.inject({
        method: 'POST',
        url: `/patient/notifications/${all[1]._id}/read`,
        headers: bearer(patient.token),
      });
      expect(markOne.statusCode).toBe(200);
      expect(markOne.json()).toEqual({ unread: 2 });
      // again: still read, the count unchanged
      expect(
        (
          await t.app.inject({ method: 'POST', url: `/patient/notifications/${all[1]._id}/read`, headers: bearer(patient.token) })
        ).json(),
      ).toEqual({ unread: 2 });
      expect((await inbox(t, patient)).items.map((n: Notification) => n.read)).toEqual([false, true, false]);

      const markAll = await t.app.inject({
        method: 'POST',
        url: '/patient/notifications/read-all',
        headers: bearer(patient.token),
      });
      expect(markAll.json()).toEqual({ unread: 0 });
      expect(await unread(t, patient)).toBe(0);
    });

    it("another account's notification is answered as a missing one (404), the other role's endpoints 403, a bad id 400", async () => {
      const { doctor, patient } = await people();
      expect((await requestPatient(doctor, patient)).statusCode).toBe(201);
      const [theirs] = (await inbox(t, patient)).items;
      const stranger = await account(t, 'patient');
      for (const id of [theirs._id, randomUUID()]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/patient/notifications/${id}/read`,
          headers: bearer(stranger.token),
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Notification not found' });
      }
      // the doctor (the other role, though a party to the request) may not use the patient's endpoints
      for (const url of [`/patient/notifications/${theirs._id}/read`, '/patient/notifications/read-all']) {
        expect((await t.app.inject({ method: 'POST', url, headers: bearer(doctor.token) })).statusCode).toBe(403);
      }
      expect(
        (await t.app.inject({ method: 'GET', url: '/patient/notifications', headers: bearer(doctor.token) })).statusCode,
      ).toBe(403);
      // nor may anyone without a session
      expect((await t.app.inject({ method: 'GET', url: '/patient/notifications/unread' })).statusCode).toBe(401);
      const bad = await t.app.inject({
        method: 'POST',
        url: '/patient/notifications/not-an-id/read',
        headers: bearer(patient.token),
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatch(/notificationId/);
      for (const query of ['?page=0', '?limit=101', '?limit=x', '?other=1']) {
        expect(
          (await t.app.inject({ method: 'GET', url: `/patient/notifications${query}`, headers: bearer(patient.token) }))
            .statusCode,
        ).toBe(400);
      }
      // none of it marked the patient's notification read, nor the stranger's read-all
      await t.app.inject({ method: 'POST', url: '/patient/notifications/read-all', headers: bearer(stranger.token) });
      expect((await inbox(t, patient)).items[0].read).toBe(false);
    });
  });

  describe('preferences', () => {
    const put = (who: Account, payload: object) =>
      t.app.inject({ method: 'PUT', url: `/${who.role}/notification-preferences`, headers: bearer(who.token), payload });

    it('every kind of the role is e-mailed until turned off; a kind turned off still reaches the inbox, with no e-mail', async () => {
      const { doctor, patient } = await people();
      const get = await t.app.inject({ method: 'GET', url: '/patient/notification-preferences', headers: bearer(patient.token) });
      expect(get.json()).toEqual({
        preferences: ['request-received', 'request-accepted', 'request-declined', 'new-record', 'new-prescription'].map(
          (kind) => ({
            kind,
            email: true,
          }),
        ),
      });
      const doctorGet = await t.app.inject({
        method: 'GET',
        url: '/doctor/notification-preferences',
        headers: bearer(doctor.token),
      });
      expect(doctorGet.json().preferences.map((p: { kind: string }) => p.kind)).toEqual([
        'request-received',
        'request-accepted',
        'request-declined',
        'access-ended',
      ]);

      const set = await put(patient, { preferences: [{ kind: 'new-record', email: false }] });
      expect(set.statusCode).toBe(200);
      expect(set.json().preferences).toContainEqual({ kind: 'new-record', email: false });
      expect(set.json().preferences).toContainEqual({ kind: 'new-prescription', email: true });

      await connect(t, doctor, patient);
      const record = await t.app.inject({
        method: 'POST',
        url: `/medicalhistory/${patient.id}`,
        headers: bearer(doctor.token),
        payload: recordBody(),
      });
      expect(record.statusCode).toBe(201);
      expect((await inbox(t, patient)).items.map((n) => n.kind)).toEqual(['new-record']);
      expect(await mailsTo(t, patient.email)).toEqual([]);

      // on again: the next one is e-mailed
      expect((await put(patient, { preferences: [{ kind: 'new-record', email: true }] })).statusCode).toBe(200);
      await t.app.inject({
        method: 'POST',
        url: `/medicalhistory/${patient.id}`,
        headers: bearer(doctor.token),
        payload: recordBody(),
      });
      expect(await mailsTo(t, patient.email)).toHaveLength(1);
    });

    it('refuses kinds the role never receives, unknown or repeated kinds, an empty or malformed body (400), writing nothing', async () => {
      const { doctor, patient } = await people();
      for (const payload of [
        { preferences: [{ kind: 'access-ended', email: false }] },
        { preferences: [{ kind: 'everything', email: false }] },
        {
          preferences: [
            { kind: 'new-record', email: false },
            { kind: 'new-record', email: true },
          ],
        },
        { preferences: [] },
        { preferences: [{ kind: 'new-record', email: 'no' }] },
        { preferences: [{ kind: 'new-record', email: false, sms: true }] },
        {},
      ]) {
        const res = await put(patient, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: expect.any(String) });
      }
      expect((await put(doctor, { preferences: [{ kind: 'new-record', email: false }] })).statusCode).toBe(400);
      const after = await t.app.inject({
        method: 'GET',
        url: '/patient/notification-preferences',
        headers: bearer(patient.token),
      });
      expect(after.json().preferences.every((p: { email: boolean }) => p.email)).toBe(true);
      // and one account's settings are its own
      expect((await put(patient, { preferences: [{ kind: 'request-received', email: false }] })).statusCode).toBe(200);
      const other = await account(t, 'patient');
      const theirs = await t.app.inject({
        method: 'GET',
        url: '/patient/notification-preferences',
        headers: bearer(other.token),
      });
      expect(theirs.json().preferences).toContainEqual({ kind: 'request-received', email: true });
    });
  });

  it('an unverified address gets the inbox entry and no e-mail', async () => {
    const { doctor } = await people();
    const unverified = await account(t, 'patient', {}, { verified: false });
    const notifier = notifierFor({ secretBox: createSecretBox(loadEncryptionKey(t.config).key), config: t.config }, t.app);
    await tdb.adapter.db.transaction((tx) =>
      notify(tx, notifier, {
        to: { role: 'patient', accountId: unverified.id },
        kind: 'request-received',
        about: { role: 'doctor', accountId: doctor.id },
        at: t.clock.now(),
      }),
    );
    expect(notifier.queued).toBe(false);
    expect((await inbox(t, unverified)).items).toHaveLength(1);
    expect(await mailsTo(t, unverified.email)).toEqual([]);
  });
});

describe.each(BACKENDS)('notification e-mails while the mailer is down, on %s', (backend) => {
  let tdb: TestDb;
  let dataDir: string;
  beforeAll(async () => {
    tdb = await createTestDb(backend);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-notify-'));
  });
  afterAll(async () => {
    await tdb.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The real outbox mailer of DATA_DIR, failing while `down`. */
  function flakyMailer(): Mailer & { down: boolean } {
    const real = createMailer(testConfig({ DATA_DIR: dataDir }));
    const m = {
      kind: real.kind,
      down: false,
      send: (message: Parameters<Mailer['send']>[0]) =>
        m.down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25')) : real.send(message),
      close: () => real.close(),
    };
    return m;
  }
  const outboxRows = () =>
    selectRows<{ attempts: number; last_error: string | null }>(
      tdb.adapter.db,
      sql`select attempts, last_error from ${mailOutbox}`,
    );

  it('the request succeeds, the e-mail waits in mail_outbox and goes out when the mailer is back — from the next start too', async () => {
    const mailer = flakyMailer();
    const t = await createTestApp(tdb.adapter, { DATA_DIR: dataDir }, undefined, undefined, { mailer });
    const doctor = await account(t, 'doctor', { name: 'Ada Grey' });
    const patient = await account(t, 'patient', { name: 'Maria Lopez' });
    mailer.down = true;
    const res = await t.app.inject({
      method: 'POST',
      url: '/doctor/requestPatient',
      headers: bearer(doctor.token),
      payload: { email: patient.email },
    });
    expect(res.statusCode).toBe(201);
    await t.app.backgroundTasks.idle();
    expect(await outboxRows()).toEqual([{ attempts: 1, last_error: expect.stringMatching(/ECONNREFUSED/) }]);
    expect(
      await tdb.adapter.db
        .select({ kind: notifications.kind })
        .from(notifications)
        .where(and(eq(notifications.accountId, patient.id), eq(notifications.role, 'patient'))),
    ).toEqual([{ kind: 'request-received' }]);

    // the api stops with the mailer still down; the next start, with the mailer back, sends it
    await t.app.close();
    mailer.down = false;
    const again = await createTestApp(tdb.adapter, { DATA_DIR: dataDir }, undefined, undefined, { mailer });
    again.clock.advance(10 * 60_000); // past the retry's time
    await again.app.mailQueue.retryNow();
    expect(await outboxRows()).toEqual([]);
    const mails = (await readOutbox(again)).filter(
      (m) => m.headers.to === patient.email && /asked to connect/.test(m.headers.subject),
    );
    expect(mails).toHaveLength(1);
    await again.app.close();
  });
});
