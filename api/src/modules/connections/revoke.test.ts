import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { AuditPage, type Role } from '@careloop/shared-contracts';
import { isAssigned } from '../../access';
import { auditLog, connectionRequests, reminders } from '../../db/schema';
import { account, connect, prescriptionBody, recordBody, type Account } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer, type TestApp, type TestDb } from '../../test/helpers';
import {
  DOCTOR_ACCESS_ENDED,
  DOCTOR_NOT_FOUND,
  PATIENT_NOT_FOUND,
  PATIENT_RELEASED,
  REQUEST_ACCEPTED,
  requestSent,
} from './messages';
import { createRequest } from './store';

describe.each(BACKENDS)('revoking a connection on %s', (backend) => {
  let t: TestApp;
  let tdb: TestDb;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t, tdb } = fixture));
  const db = () => tdb.adapter.db;

  const endAccess = (patient: Account, doctorId: string) =>
    t.app.inject({ method: 'DELETE', url: `/patient/doctors/${doctorId}`, headers: bearer(patient.token) });
  const release = (doctor: Account, patientId: string) =>
    t.app.inject({ method: 'DELETE', url: `/doctor/patients/${patientId}`, headers: bearer(doctor.token) });
  /** Ends the pair's connection from either side. */
  const revokeBy = (side: Role, doctor: Account, patient: Account) =>
    side === 'patient' ? endAccess(patient, doctor.id) : release(doctor, patient.id);

  async function connectedPair() {
    const doctor = await account(t, 'doctor', { name: 'Dr Ada Grey' });
    const patient = await account(t, 'patient', { name: 'Pat Doe' });
    await connect(t, doctor, patient);
    return { doctor, patient };
  }

  const revokeRows = (patientId: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.patientId, patientId), eq(auditLog.action, 'revoke')));

  describe('DELETE /patient/doctors/{doctorId}', () => {
    it('ends the doctor’s access and writes one audit row by the patient', async () => {
      const { doctor, patient } = await connectedPair();
      const res = await endAccess(patient, doctor.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: DOCTOR_ACCESS_ENDED });
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false);

      const me = await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(patient.token) });
      expect(me.json().patient.assignedDoctors).toEqual([]);
      const doctorMe = await t.app.inject({ method: 'GET', url: '/doctor/me', headers: bearer(doctor.token) });
      expect(doctorMe.json().doctor.assignedPatients).toEqual([]);

      const rows = await revokeRows(patient.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actorId: patient.id,
        actorRole: 'patient',
        action: 'revoke',
        entity: 'assignment',
        entityId: doctor.id,
        patientId: patient.id,
      });
    });

    it('answers 404 for an id that is not one of the patient’s doctors, as for an unknown one', async () => {
      const { doctor, patient } = await connectedPair();
      const stranger = await account(t, 'doctor');
      const otherPatient = await account(t, 'patient');
      // someone else's doctor, an unknown id, a patient's id (the other role's), the caller's own id
      for (const id of [stranger.id, randomUUID(), otherPatient.id, patient.id]) {
        const res = await endAccess(patient, id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: DOCTOR_NOT_FOUND });
      }
      // another patient cannot end this patient's doctor's access
      expect((await endAccess(otherPatient, doctor.id)).statusCode).toBe(404);
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);
      // ending it twice: the second time there is nothing to end
      expect((await endAccess(patient, doctor.id)).statusCode).toBe(200);
      expect((await endAccess(patient, doctor.id)).json()).toEqual({ error: DOCTOR_NOT_FOUND });
      expect(await revokeRows(patient.id)).toHaveLength(1);
    });

    it('refuses a malformed id (400), no token (401) and a doctor (403)', async () => {
      const { doctor, patient } = await connectedPair();
      const bad = await endAccess(patient, 'not-a-uuid');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: expect.any(String) });
      expect((await t.app.inject({ method: 'DELETE', url: `/patient/doctors/${doctor.id}` })).statusCode).toBe(401);
      const asDoctor = await t.app.inject({
        method: 'DELETE',
        url: `/patient/doctors/${doctor.id}`,
        headers: bearer(doctor.token),
      });
      expect(asDoctor.statusCode).toBe(403);
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);
    });
  });

  describe('DELETE /doctor/patients/{patientId}', () => {
    it('releases the patient and writes one audit row by the doctor', async () => {
      const { doctor, patient } = await connectedPair();
      const res = await release(doctor, patient.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: PATIENT_RELEASED });
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false);
      const rows = await revokeRows(patient.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actorId: doctor.id,
        actorRole: 'doctor',
        entity: 'assignment',
        entityId: doctor.id,
        patientId: patient.id,
      });
    });

    it('answers 404 for an id that is not one of the doctor’s patients, as for an unknown one', async () => {
      const { doctor, patient } = await connectedPair();
      const stranger = await account(t, 'patient');
      const otherDoctor = await account(t, 'doctor');
      for (const id of [stranger.id, randomUUID(), otherDoctor.id, doctor.id]) {
        const res = await release(doctor, id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: PATIENT_NOT_FOUND });
      }
      expect((await release(otherDoctor, patient.id)).statusCode).toBe(404);
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);
      expect(await revokeRows(patient.id)).toHaveLength(0);
    });

    it('refuses a malformed id (400), no token (401) and a patient (403)', async () => {
      const { doctor, patient } = await connectedPair();
      expect((await release(doctor, '123')).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'DELETE', url: `/doctor/patients/${patient.id}` })).statusCode).toBe(401);
      const asPatient = await t.app.inject({
        method: 'DELETE',
        url: `/doctor/patients/${patient.id}`,
        headers: bearer(patient.token),
      });
      expect(asPatient.statusCode).toBe(403);
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);
    });
  });

  it('keeps the assignment when its audit row cannot be written: both happen in one transaction', async () => {
    const { doctor, patient } = await connectedPair();
    await db().execute(sql`
      create function refuse_revoke_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit refused'; end $$`);
    await db().execute(sql`
      create trigger refuse_revoke_audit before insert on audit_log
      for each row when (new.action = 'revoke') execute function refuse_revoke_audit()`);
    try {
      expect((await endAccess(patient, doctor.id)).statusCode).toBe(500);
      expect((await release(doctor, patient.id)).statusCode).toBe(500);
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);
    } finally {
      await db().execute(sql`drop trigger refuse_revoke_audit on audit_log`);
      await db().execute(sql`drop function refuse_revoke_audit()`);
    }
    expect((await endAccess(patient, doctor.id)).statusCode).toBe(200);
  });

  describe.each(['patient', 'doctor'] as const)('after the %s revokes', (side) => {
    it('the doctor is told their access ended (403) on everything of the patient; the patient still sees their own', async () => {
      const { doctor, patient } = await connectedPair();
      const as = (who: Account, method: 'GET' | 'POST', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });
      const record = await as(doctor, 'POST', `/medicalhistory/${patient.id}`, recordBody());
      expect(record.statusCode).toBe(201);
      const recordId = record.json().record._id;
      const prescription = await as(doctor, 'POST', `/prescription/${patient.id}`, prescriptionBody());
      expect(prescription.statusCode).toBe(201);
      const prescriptionId = prescription.json()._id;
      expect((await as(doctor, 'GET', `/medicalHistory/${recordId}`)).statusCode).toBe(200);

      expect((await revokeBy(side, doctor, patient)).statusCode).toBe(200);

      const reads = [
        ['GET', `/medicalHistory/${recordId}`],
        ['GET', `/medicalhistories?page=1&limit=10&patientId=${patient.id}`],
        ['POST', `/medicalhistory/summary/${recordId}`, {}],
        ['GET', `/prescription/${prescriptionId}`],
        ['GET', `/prescription?page=1&limit=10&patientId=${patient.id}`],
        ['GET', `/medical-record?patientId=${patient.id}`],
        ['GET', `/drug-alerts/${patient.id}?drug=Penicillin`],
        ['POST', `/medicalhistory/${patient.id}`, recordBody()],
        ['POST', `/prescription/${patient.id}`, prescriptionBody()],
      ] as const;
      // they knew the patient: "not found" would hide that their access was taken away
      for (const [method, url, payload] of reads) {
        const res = await as(doctor, method, url, payload);
        expect({ url, status: res.statusCode, body: res.json() }).toEqual({
          url,
          status: 403,
          body: { error: "You no longer have access to this patient's records" },
        });
      }
      // a doctor who never had the patient still gets "not found"
      const stranger = await account(t, 'doctor');
      expect((await as(stranger, 'GET', `/medicalHistory/${recordId}`)).statusCode).toBe(404);
      expect((await as(stranger, 'GET', `/medicalhistories?page=1&limit=10&patientId=${patient.id}`)).statusCode).toBe(404);
      // Reminders are addressed by e-mail: 404 like the rest, the same refusal as for an unknown address.
      const reminder = await as(doctor, 'POST', '/doctor/reminder', {
        to: patient.email,
        subject: 'Blood test',
        text: 'Please book your blood test.',
        startDate: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
        intervalDays: 0,
      });
      expect(reminder.statusCode).toBe(404);
      // the doctor's list of all their patients' records no longer holds this patient's
      const all = await as(doctor, 'GET', '/medicalhistories?page=1&limit=10');
      expect(all.statusCode).toBe(200);
      expect(all.json().items).toEqual([]);

      expect((await as(patient, 'GET', `/medicalHistory/${recordId}`)).statusCode).toBe(200);
      expect((await as(patient, 'GET', `/prescription/${prescriptionId}`)).statusCode).toBe(200);
    });

    it('cancels the doctor’s scheduled reminders to the patient, audited', async () => {
      const { doctor, patient } = await connectedPair();
      const created = await t.app.inject({
        method: 'POST',
        url: '/doctor/reminder',
        headers: bearer(doctor.token),
        payload: {
          to: patient.email,
          subject: 'Blood test',
          text: 'Please book your blood test.',
          startDate: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
          intervalDays: 7,
        },
      });
      expect(created.statusCode).toBe(201);
      expect((await revokeBy(side, doctor, patient)).statusCode).toBe(200);
      const [row] = await db().select().from(reminders).where(eq(reminders.id, created.json()._id));
      expect(row).toMatchObject({ status: 'cancelled', nextRunAt: null });
      const cancelled = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, row.id), eq(auditLog.action, 'update')));
      expect(cancelled).toHaveLength(1);
    });

    it('after the revoke the doctor sees no current detail of the patient: the name as scheduled, no e-mail, "access ended"', async () => {
      const { doctor, patient } = await connectedPair();
      const as = (who: Account, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });
      const scheduledAs = (await as(patient, 'GET', '/patient/me')).json().patient.name as string;
      const created = await as(doctor, 'POST', '/doctor/reminder', {
        to: patient.email,
        subject: 'Annual review',
        text: 'Please book your review.',
        startDate: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
        intervalDays: 0,
      });
      expect(created.statusCode).toBe(201);
      expect((await revokeBy(side, doctor, patient)).statusCode).toBe(200);
      // the patient moves on: a new name
      expect((await as(patient, 'PATCH', '/patient/me', { name: 'Renamed After Revoke' })).statusCode).toBe(200);

      const list = await as(doctor, 'GET', '/doctor/reminders');
      const item = list.json().find((r: { _id: string }) => r._id === created.json()._id);
      expect(item).toMatchObject({ status: 'cancelled', accessEnded: true, to: '', patientName: scheduledAs });
      expect(list.body).not.toContain(patient.email);
      expect(list.body).not.toContain('Renamed After Revoke');
    });

    it('leaves pending requests alone, and the pair may connect again by a new request', async () => {
      const { doctor, patient } = await connectedPair();
      const elsewhere = await account(t, 'doctor');
      expect(
        await createRequest(db(), { doctorId: elsewhere.id, patientId: patient.id, initiatedBy: 'patient', now: t.clock.now() }),
      ).toBe(true);

      expect((await revokeBy(side, doctor, patient)).statusCode).toBe(200);
      const pending = await db()
        .select()
        .from(connectionRequests)
        .where(and(eq(connectionRequests.patientId, patient.id), eq(connectionRequests.status, 'pending')));
      expect(pending.map((r) => r.doctorId)).toEqual([elsewhere.id]);

      const asked = await t.app.inject({
        method: 'POST',
        url: '/doctor/requestPatient',
        headers: bearer(doctor.token),
        payload: { email: patient.email },
      });
      expect(asked.statusCode).toBe(201);
      expect(asked.json()).toEqual({ message: requestSent(patient.email) });
      const received = await t.app.inject({ method: 'GET', url: '/patient/receivedRequests', headers: bearer(patient.token) });
      const request = received.json().find((r: { doctor: { email: string } }) => r.doctor.email === doctor.email);
      const accepted = await t.app.inject({
        method: 'PATCH',
        url: `/patient/responseRequest/${request._id}`,
        headers: bearer(patient.token),
        payload: { action: 'accept' },
      });
      expect(accepted.json()).toEqual({ message: REQUEST_ACCEPTED });
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);
      const record = await t.app.inject({
        method: 'POST',
        url: `/medicalhistory/${patient.id}`,
        headers: bearer(doctor.token),
        payload: recordBody(),
      });
      expect(record.statusCode).toBe(201);
    });

    it('shows in the patient’s access history', async () => {
      const { doctor, patient } = await connectedPair();
      expect((await revokeBy(side, doctor, patient)).statusCode).toBe(200);
      const res = await t.app.inject({ method: 'GET', url: '/patient/audit', headers: bearer(patient.token) });
      // (The patient's own e-mail verification is in the same log: only the data-access rows here.)
      const page = AuditPage.parse(res.json());
      const access = page.items.filter((e) => e.action !== 'email-verify');
      expect(access.map((e) => [e.actorName, e.actorRole, e.action, e.entity, e.entityId])).toEqual([
        [side === 'patient' ? 'Pat Doe' : 'Dr Ada Grey', side, 'revoke', 'assignment', doctor.id],
      ]);
    });
  });
});
