import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import { selectRows } from '../../adapters/db';
import { assignments, connectionRequests, patients } from '../../db/schema';
import { appPerFile, BACKENDS, bearer, countRows, signup, uniqueEmail, type TestApp, type TestDb } from '../../test/helpers';
import { assign, assignedDoctorsOf, assignedPatientsOf, isAssigned } from '../../access';
import {
  ALREADY_ANSWERED,
  ALREADY_CONNECTED,
  ALREADY_PENDING,
  ONLY_ADDRESSEE_ACCEPTS,
  REQUEST_ACCEPTED,
  REQUEST_CANCELLED,
  REQUEST_NOT_FOUND,
  REQUEST_TO_SELF,
} from './messages';
import { createRequest, respondToRequest } from './store';

interface Account {
  role: Role;
  id: string;
  name: string;
  email: string;
  token: string;
}

/** A test doctor's registration as the helpers sign up and verify it. */
const registration = { register: 'GMC', number: '1234567', verified: true };

const other = (role: Role): Role => (role === 'doctor' ? 'patient' : 'doctor');
const requestPath = (role: Role) => (role === 'doctor' ? '/doctor/requestPatient' : '/patient/requestDoctor');

describe.each(BACKENDS)('connections on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t, tdb } = fixture));

  const db = () => tdb.adapter.db;

  async function account(role: Role, name = `Test ${role}`, email = uniqueEmail(role)): Promise<Account> {
    const { token } = await signup(t.app, role, { name, email });
    const me = await t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(token) });
    return { role, id: me.json()[role]._id, name, email, token };
  }
  const pair = async () => ({ doctor: await account('doctor', 'Dr Who'), patient: await account('patient', 'Pat Doe') });

  const ask = (from: Account, email: string) =>
    t.app.inject({ method: 'POST', url: requestPath(from.role), headers: bearer(from.token), payload: { email } });
  const list = (who: Account, direction: 'received' | 'sent') =>
    t.app.inject({ method: 'GET', url: `/${who.role}/${direction}Requests`, headers: bearer(who.token) });
  const respond = (who: Account, requestId: string, action: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/${who.role}/responseRequest/${requestId}`,
      headers: bearer(who.token),
      payload: { action },
    });
  const me = async (who: Account) =>
    (await t.app.inject({ method: 'GET', url: `/${who.role}/me`, headers: bearer(who.token) })).json()[who.role];

  /** Sends a request and answers its id (read from the sender's sent list). */
  async function sent(from: Account, to: Account): Promise<string> {
    const res = await ask(from, to.email);
    expect(res.statusCode).toBe(201);
    const mine = (await list(from, 'sent')).json() as Array<{ _id: string }>;
    return mine[0]._id;
  }

  async function statusOf(id: string): Promise<string> {
    const [row] = await db().select().from(connectionRequests).where(eq(connectionRequests.id, id));
    return row.status;
  }

  async function pendingBetween(doctor: Account, patient: Account): Promise<number> {
    const rows = await db()
      .select()
      .from(connectionRequests)
      .where(
        and(
          eq(connectionRequests.doctorId, doctor.id),
          eq(connectionRequests.patientId, patient.id),
          eq(connectionRequests.status, 'pending'),
        ),
      );
    return rows.length;
  }

  describe('sending a request', () => {
    it.each<Role>(['doctor', 'patient'])(
      'a %s asks the other role by e-mail: 201 naming the address, not the person',
      async (role) => {
        const { doctor, patient } = await pair();
        const [from, to] = role === 'doctor' ? [doctor, patient] : [patient, doctor];
        const res = await ask(from, `  ${to.email.toUpperCase()} `);
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({ message: `Request sent to ${to.email}.` });
        expect(res.body).not.toContain(to.name);

        const expected = [
          {
            _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
            doctor: { name: 'Dr Who', email: doctor.email, registration },
            patient: { name: 'Pat Doe', email: patient.email },
          },
        ];
        const received = await list(to, 'received');
        expect(received.statusCode).toBe(200);
        expect(received.json()).toEqual(expected);
        expect(Object.keys(received.json()[0]).sort()).toEqual(['_id', 'doctor', 'patient']);
        expect(Object.keys(received.json()[0].doctor).sort()).toEqual(['email', 'name', 'registration']);
        expect(Object.keys(received.json()[0].patient).sort()).toEqual(['email', 'name']);
        expect(received.body).not.toMatch(/status|pending|initiated/i);

        const sentList = (await list(from, 'sent')).json();
        // The sender's list keeps SPEC's shape but not the addressee's name (issue 11).
        // …nor the doctor's registration number (it names them in a public register), only whether it is verified.
        const withheld = to.role === 'doctor' ? { registration: { ...registration, register: null, number: null } } : {};
        expect(sentList).toEqual([{ ...expected[0], [to.role]: { name: '', email: to.email, ...withheld } }]);
        expect(sentList[0]._id).toBe(received.json()[0]._id);
        expect(Object.keys(sentList[0]).sort()).toEqual(['_id', 'doctor', 'patient']);
        // the sender received nothing, the addressee sent nothing
        expect((await list(from, 'received')).json()).toEqual([]);
        expect((await list(to, 'sent')).json()).toEqual([]);
      },
    );

    it.each<[Role, string]>([
      ['doctor', 'No patient with this e-mail'],
      ['patient', 'No doctor with this e-mail'],
    ])('a %s asking an unknown e-mail gets 404 with the error field', async (role, error) => {
      const from = await account(role);
      const res = await ask(from, uniqueEmail('nobody'));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error });
      expect((await list(from, 'sent')).json()).toEqual([]);
    });

    it.each<[Role, string]>([
      ['doctor', 'No patient with this e-mail'],
      ['patient', 'No doctor with this e-mail'],
    ])('a %s asking an account of their own role gets the unknown e-mail answer (no enumeration)', async (role, error) => {
      const from = await account(role);
      const colleague = await account(role);
      const res = await ask(from, colleague.email);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error });
      // their own e-mail, with no account of the other role behind it, is said plainly
      const own = await ask(from, from.email);
      expect(own.statusCode).toBe(400);
      expect(own.json()).toEqual({ error: REQUEST_TO_SELF });
    });

    it.each<Role>(['doctor', 'patient'])('a %s cannot ask their own other-role account (same e-mail): 400', async (role) => {
      const email = uniqueEmail('both');
      const mine = await account(role, 'Same Person', email);
      await account(other(role), 'Same Person', email);
      const res = await ask(mine, email);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: REQUEST_TO_SELF });
      expect(await countRowsFor(email)).toBe(0);
    });

    async function countRowsFor(email: string): Promise<number> {
      const [row] = await selectRows<{ n: number | string }>(
        db(),
        sql`select count(*)::int as n from connection_requests r join patients p on p.id = r.patient_id where p.email = ${email}`,
      );
      return Number(row.n);
    }

    it('refuses a second pending request for the pair in the same direction: 409', async () => {
      const { doctor, patient } = await pair();
      await sent(doctor, patient);
      const again = await ask(doctor, patient.email);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: ALREADY_PENDING });
      expect(await pendingBetween(doctor, patient)).toBe(1);
    });

    it('refuses a pending request in the opposite direction too: 409', async () => {
      const { doctor, patient } = await pair();
      await sent(doctor, patient);
      const reverse = await ask(patient, doctor.email);
      expect(reverse.statusCode).toBe(409);
      expect(reverse.json()).toEqual({ error: ALREADY_PENDING });
      expect((await list(patient, 'sent')).json()).toEqual([]);
      expect(await pendingBetween(doctor, patient)).toBe(1);

      // and the mirror: a patient's pending request blocks the doctor's
      const p2 = await account('patient');
      await sent(p2, doctor);
      const mirror = await ask(doctor, p2.email);
      expect(mirror.statusCode).toBe(409);
      expect(mirror.json()).toEqual({ error: ALREADY_PENDING });
    });

    it('two identical requests at once: exactly one 201 and one 409 (the index decides)', async () => {
      const { doctor, patient } = await pair();
      const results = await Promise.all([ask(doctor, patient.email), ask(doctor, patient.email)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.statusCode === 409)!.json()).toEqual({ error: ALREADY_PENDING });
      expect(await pendingBetween(doctor, patient)).toBe(1);
    });

    it('two opposite requests at once: exactly one 201 and one 409', async () => {
      const { doctor, patient } = await pair();
      const results = await Promise.all([ask(doctor, patient.email), ask(patient, doctor.email)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(await pendingBetween(doctor, patient)).toBe(1);
    });

    it('the index itself refuses a second pending row, whatever the direction', async () => {
      const { doctor, patient } = await pair();
      const now = t.clock.now();
      expect(await createRequest(db(), { doctorId: doctor.id, patientId: patient.id, initiatedBy: 'doctor', now })).toBe(true);
      expect(await createRequest(db(), { doctorId: doctor.id, patientId: patient.id, initiatedBy: 'patient', now })).toBe(false);
      expect(await pendingBetween(doctor, patient)).toBe(1);
    });

    it('refuses a request between connected accounts, in both directions: 409', async () => {
      const { doctor, patient } = await pair();
      const id = await sent(patient, doctor);
      expect((await respond(doctor, id, 'accept')).statusCode).toBe(200);
      for (const [from, to] of [
        [doctor, patient],
        [patient, doctor],
      ]) {
        const res = await ask(from, to.email);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ error: ALREADY_CONNECTED });
      }
      expect(await pendingBetween(doctor, patient)).toBe(0);
    });

    it('lists newest first, only pending ones', async () => {
      const doctor = await account('doctor');
      const a = await account('patient', 'Alice');
      const b = await account('patient', 'Bob');
      const c = await account('patient', 'Carol');
      await sent(doctor, a);
      t.clock.advance(1000);
      await sent(doctor, b);
      t.clock.advance(1000);
      const cId = await sent(doctor, c);
      // The sender's list shows addresses (the addressees' names stay empty).
      const sentTo = async () => (await list(doctor, 'sent')).json().map((r: { patient: { email: string } }) => r.patient.email);
      expect(await sentTo()).toEqual([c.email, b.email, a.email]);
      expect((await respond(c, cId, 'reject')).statusCode).toBe(200);
      expect(await sentTo()).toEqual([b.email, a.email]);
      // The addressees see who asked them, by name.
      expect((await list(a, 'received')).json().map((r: { doctor: { name: string } }) => r.doctor.name)).toEqual([doctor.name]);
    });

    it.each([
      ['an unknown key', { email: 'a@example.com', role: 'doctor' }, /role/],
      ['a bad e-mail', { email: 'nope' }, /^email: /],
      ['no e-mail', {}, /^email: /],
    ])('rejects %s with 400', async (_label, payload, error) => {
      const doctor = await account('doctor');
      const res = await t.app.inject({ method: 'POST', url: '/doctor/requestPatient', headers: bearer(doctor.token), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.stringMatching(error) });
    });
  });

  describe('answering a request', () => {
    it('the addressee accepts: the assignment shows on both profiles', async () => {
      const { doctor, patient } = await pair();
      const id = await sent(doctor, patient);
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false);

      const res = await respond(patient, id, 'accept');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: REQUEST_ACCEPTED });
      expect(await statusOf(id)).toBe('accepted');
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);

      expect((await me(doctor)).assignedPatients).toEqual([
        { patient: patient.id, name: 'Pat Doe', DOB: null, email: patient.email },
      ]);
      expect((await me(patient)).assignedDoctors).toEqual([{ doctor: doctor.id, name: 'Dr Who', registration }]);
      // PATCH /{role}/me answers them too
      const patched = await t.app.inject({
        method: 'PATCH',
        url: '/patient/me',
        headers: bearer(patient.token),
        payload: { occupation: 'Chef' },
      });
      expect(patched.json().patient.assignedDoctors).toEqual([{ doctor: doctor.id, name: 'Dr Who', registration }]);
      // no longer listed anywhere
      expect((await list(patient, 'received')).json()).toEqual([]);
      expect((await list(doctor, 'sent')).json()).toEqual([]);
    });

    it('a doctor accepts a patient request the same way', async () => {
      const { doctor, patient } = await pair();
      const id = await sent(patient, doctor);
      expect((await list(doctor, 'received')).json()).toHaveLength(1);
      const res = await respond(doctor, id, 'accept');
      expect(res.json()).toEqual({ message: REQUEST_ACCEPTED });
      expect((await me(doctor)).assignedPatients).toEqual([
        { patient: patient.id, name: 'Pat Doe', DOB: null, email: patient.email },
      ]);
      expect((await me(patient)).assignedDoctors).toEqual([{ doctor: doctor.id, name: 'Dr Who', registration }]);
    });

    it.each<Role>(['doctor', 'patient'])('the sender (%s) cannot accept: 403, the request stays pending', async (senderRole) => {
      const { doctor, patient } = await pair();
      const [from, to] = senderRole === 'doctor' ? [doctor, patient] : [patient, doctor];
      const id = await sent(from, to);
      const res = await respond(from, id, 'accept');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: ONLY_ADDRESSEE_ACCEPTS });
      expect(await statusOf(id)).toBe('pending');
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false);
    });

    it('the sender can cancel (reject) their own request', async () => {
      const { doctor, patient } = await pair();
      const id = await sent(doctor, patient);
      const res = await respond(doctor, id, 'reject');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: REQUEST_CANCELLED });
      expect(await statusOf(id)).toBe('rejected');
      expect((await list(doctor, 'sent')).json()).toEqual([]);
      expect((await list(patient, 'received')).json()).toEqual([]);
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false);
    });

    it('the addressee can reject; an answered request answers 409 to both actions; a new request is then possible', async () => {
      const { doctor, patient } = await pair();
      const id = await sent(patient, doctor);
      const res = await respond(doctor, id, 'reject');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: REQUEST_CANCELLED });
      for (const [who, action] of [
        [doctor, 'accept'],
        [doctor, 'reject'],
        [patient, 'reject'],
      ] as const) {
        const again = await respond(who, id, action);
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual({ error: ALREADY_ANSWERED });
      }
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false);
      // only pending requests block a new one
      await sent(doctor, patient);
    });

    it('an accepted request answers 409 to a second accept or a reject', async () => {
      const { doctor, patient } = await pair();
      const id = await sent(doctor, patient);
      expect((await respond(patient, id, 'accept')).statusCode).toBe(200);
      for (const [who, action] of [
        [patient, 'accept'],
        [patient, 'reject'],
        [doctor, 'reject'],
      ] as const) {
        const again = await respond(who, id, action);
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual({ error: ALREADY_ANSWERED });
      }
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);
      expect(await countAssignments(doctor.id, patient.id)).toBe(1);
    });

    it('two accepts at once: one 200, one 409, one assignment', async () => {
      const { doctor, patient } = await pair();
      const id = await sent(doctor, patient);
      const results = await Promise.all([respond(patient, id, 'accept'), respond(patient, id, 'accept')]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await countAssignments(doctor.id, patient.id)).toBe(1);
    });

    it("a third party gets 404 for someone else's request, and nothing changes", async () => {
      const { doctor, patient } = await pair();
      const id = await sent(doctor, patient);
      const otherDoctor = await account('doctor');
      const otherPatient = await account('patient');
      for (const who of [otherDoctor, otherPatient]) {
        for (const action of ['accept', 'reject']) {
          const res = await respond(who, id, action);
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual({ error: REQUEST_NOT_FOUND });
        }
      }
      // and an id that does not exist looks the same
      const missing = await respond(patient, randomUUID(), 'accept');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: REQUEST_NOT_FOUND });
      expect(await statusOf(id)).toBe('pending');
      expect((await list(otherDoctor, 'sent')).json()).toEqual([]);
      expect((await list(otherPatient, 'received')).json()).toEqual([]);
    });

    it.each([
      ['a malformed id', 'not-a-uuid', { action: 'accept' }, /^requestId: /],
      ['an unknown action', null, { action: 'maybe' }, /^action: /],
      ['no action', null, {}, /^action: /],
      ['an unknown key', null, { action: 'accept', status: 'accepted' }, /status/],
    ])('rejects %s with 400', async (_label, badId, payload, error) => {
      const { doctor, patient } = await pair();
      const id = await sent(doctor, patient);
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/patient/responseRequest/${badId ?? id}`,
        headers: bearer(patient.token),
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.stringMatching(error) });
      expect(await statusOf(id)).toBe('pending');
    });

    it('accept and assignment are one transaction: a failing assignment leaves the request pending', async () => {
      const { doctor, patient } = await pair();
      const id = await sent(doctor, patient);
      await db().execute(
        sql.raw(`
        create function careloop_test_fail() returns trigger language plpgsql as $$
        begin raise exception 'simulated failure'; end $$`),
      );
      await db().execute(
        sql.raw(
          'create trigger careloop_test_fail before insert on assignments for each row execute function careloop_test_fail()',
        ),
      );
      try {
        const res = await respond(patient, id, 'accept');
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ error: 'Internal server error' });
      } finally {
        await db().execute(sql.raw('drop trigger careloop_test_fail on assignments'));
        await db().execute(sql.raw('drop function careloop_test_fail()'));
      }
      expect(await statusOf(id)).toBe('pending');
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false);
      expect((await list(patient, 'received')).json()).toHaveLength(1);
      // once the fault is gone the same request can be accepted
      expect((await respond(patient, id, 'accept')).statusCode).toBe(200);
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);
    });

    it('a transaction failing after the data function ran leaves the request pending', async () => {
      const { doctor, patient } = await pair();
      const id = await sent(doctor, patient);
      await expect(
        db().transaction(async (tx) => {
          expect(await respondToRequest(tx, 'patient', patient.id, id, 'accept', t.clock.now())).toBe('accepted');
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await statusOf(id)).toBe('pending');
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false);
    });

    it('accepting for a pair somehow already assigned succeeds without a duplicate', async () => {
      const { doctor, patient } = await pair();
      await assign(db(), doctor.id, patient.id, t.clock.now());
      // the route refuses this request (already connected); make it directly
      expect(
        await createRequest(db(), { doctorId: doctor.id, patientId: patient.id, initiatedBy: 'doctor', now: t.clock.now() }),
      ).toBe(true);
      const [{ _id: id }] = (await list(patient, 'received')).json();
      const res = await respond(patient, id, 'accept');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: REQUEST_ACCEPTED });
      expect(await countAssignments(doctor.id, patient.id)).toBe(1);
    });

    async function countAssignments(doctorId: string, patientId: string): Promise<number> {
      const rows = await db()
        .select()
        .from(assignments)
        .where(and(eq(assignments.doctorId, doctorId), eq(assignments.patientId, patientId)));
      return rows.length;
    }
  });

  describe('the guard', () => {
    const routes = (role: Role, id: string) => [
      { method: 'POST' as const, url: requestPath(role), payload: { email: 'a@example.com' } },
      { method: 'GET' as const, url: `/${role}/receivedRequests` },
      { method: 'GET' as const, url: `/${role}/sentRequests` },
      { method: 'PATCH' as const, url: `/${role}/responseRequest/${id}`, payload: { action: 'reject' } },
    ];

    it.each<Role>(['doctor', 'patient'])('a token of the other role on %s routes gets 403', async (role) => {
      const { doctor, patient } = await pair();
      const id = await sent(doctor, patient);
      const intruder = role === 'doctor' ? patient : doctor;
      for (const req of routes(role, id)) {
        const res = await t.app.inject({ ...req, headers: bearer(intruder.token) });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'Forbidden' });
      }
      expect(await statusOf(id)).toBe('pending');
    });

    it.each<Role>(['doctor', 'patient'])('no token or an unknown one on %s routes gets 401', async (role) => {
      for (const headers of [{}, { authorization: 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }]) {
        for (const req of routes(role, randomUUID())) {
          const res = await t.app.inject({ ...req, headers });
          expect(res.statusCode).toBe(401);
          expect(res.json()).toEqual({ error: 'Unauthorized' });
        }
      }
    });
  });

  describe('assignments', () => {
    it('isAssigned is true only for the connected pair; malformed ids are false', async () => {
      const { doctor, patient } = await pair();
      const stranger = await account('patient');
      await sent(doctor, patient);
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false); // pending is not connected
      const [{ _id: id }] = (await list(patient, 'received')).json();
      await respond(patient, id, 'accept');
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(true);
      expect(await isAssigned(db(), doctor.id, stranger.id)).toBe(false);
      expect(await isAssigned(db(), patient.id, doctor.id)).toBe(false); // arguments are (doctor, patient)
      expect(await isAssigned(db(), 'nope', patient.id)).toBe(false);
      expect(await isAssigned(db(), doctor.id, "'; drop table assignments; --")).toBe(false);
    });

    it("lists a doctor's patients and a patient's doctors by name", async () => {
      const doctor = await account('doctor', 'Dr Main');
      const zed = await account('patient', 'Zed');
      const amy = await account('patient', 'Amy');
      const second = await account('doctor', 'Dr Another');
      for (const p of [zed, amy]) await respond(p, await sent(doctor, p), 'accept');
      await respond(second, await sent(amy, second), 'accept');

      expect((await me(doctor)).assignedPatients).toEqual([
        { patient: amy.id, name: 'Amy', DOB: null, email: amy.email },
        { patient: zed.id, name: 'Zed', DOB: null, email: zed.email },
      ]);
      expect(await assignedPatientsOf(db(), doctor.id)).toEqual([
        { patient: amy.id, name: 'Amy', DOB: null, email: amy.email },
        { patient: zed.id, name: 'Zed', DOB: null, email: zed.email },
      ]);
      expect((await me(amy)).assignedDoctors).toEqual([
        { doctor: second.id, name: 'Dr Another', registration },
        { doctor: doctor.id, name: 'Dr Main', registration },
      ]);
      expect(await assignedDoctorsOf(db(), zed.id)).toEqual([{ doctor: doctor.id, name: 'Dr Main', registration }]);
    });

    it('an assigned doctor tells two patients of one name apart by date of birth and e-mail, and learns nothing more', async () => {
      const doctor = await account('doctor', 'Dr Main');
      const stranger = await account('doctor', 'Dr Stranger');
      const twins: Account[] = [];
      for (const DOB of ['1980-03-12', '1991-11-02']) {
        const email = uniqueEmail('patient');
        const { token } = await signup(t.app, 'patient', { name: 'Asha Rao', email, DOB, occupation: 'Chef' });
        const res = await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(token) });
        twins.push({ role: 'patient', id: res.json().patient._id, name: 'Asha Rao', email, token });
      }
      for (const p of twins) await respond(p, await sent(doctor, p), 'accept');
      // the stranger asked one of them, who has not answered: still nothing of theirs
      await sent(stranger, twins[0]);

      const listed = (await me(doctor)).assignedPatients;
      // exactly these four fields: no address, occupation, gender or 2FA state reaches the doctor here
      expect(listed).toEqual(
        expect.arrayContaining([
          { patient: twins[0].id, name: 'Asha Rao', DOB: '1980-03-12', email: twins[0].email },
          { patient: twins[1].id, name: 'Asha Rao', DOB: '1991-11-02', email: twins[1].email },
        ]),
      );
      expect(listed).toHaveLength(2);
      expect((await me(stranger)).assignedPatients).toEqual([]);
      // the patient's own profile is as before
      const own = await me(twins[0]);
      expect(own).toMatchObject({ DOB: '1980-03-12', occupation: 'Chef', email: twins[0].email });
    });

    it('deleting an account removes its assignments and requests (cascade)', async () => {
      const { doctor, patient } = await pair();
      await respond(patient, await sent(doctor, patient), 'accept');
      const p2 = await account('patient');
      await sent(p2, doctor);
      const before = {
        requests: await countRows(tdb.adapter, 'connection_requests'),
        links: await countRows(tdb.adapter, 'assignments'),
      };
      await db().delete(patients).where(eq(patients.id, patient.id));
      await db().delete(patients).where(eq(patients.id, p2.id));
      expect(await isAssigned(db(), doctor.id, patient.id)).toBe(false);
      expect(await countRows(tdb.adapter, 'assignments')).toBe(before.links - 1);
      expect(await countRows(tdb.adapter, 'connection_requests')).toBe(before.requests - 2);
      expect((await me(doctor)).assignedPatients).toEqual([]);
      expect((await list(doctor, 'received')).json()).toEqual([]);
    });
  });
});
