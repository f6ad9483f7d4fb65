import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import { accountTables, accountTokens, auditLog, connectionRequests, patients, reminderDeliveries } from '../../../db/schema';
import { account, connect, type Account } from '../../../test/clinical';
import {
  appPerFile,
  BACKENDS,
  bearer,
  countRows,
  PASSWORD,
  readOutbox,
  signup,
  uniqueEmail,
  verificationTokenFor,
  type TestApp,
  type TestDb,
  signupExtras,
} from '../../../test/helpers';
import { deliveriesOf, NOT_YOUR_PATIENT, PATIENT_EMAIL_UNVERIFIED, runDueReminders } from '../../../access';
import { noAccount, REQUEST_TO_SELF, requestSent, TOO_MANY_REQUESTS, VERIFY_FIRST } from '../../connections/messages';
import {
  ALREADY_VERIFIED,
  RESEND_TOO_MANY,
  RESEND_TOO_SOON,
  VERIFY_DONE,
  VERIFY_INVALID,
  VERIFY_USED,
  VERIFY_MAIL_SUBJECT,
  VERIFY_TAKEN,
} from './messages';
import { issueEmailToken } from './tokens';

const HOUR = 3_600_000;
const other = (role: Role): Role => (role === 'doctor' ? 'patient' : 'doctor');
const requestPath = (role: Role) => (role === 'doctor' ? '/doctor/requestPatient' : '/patient/requestDoctor');

describe.each(BACKENDS)('e-mail verification on %s', (backend) => {
  let t: TestApp;
  let tdb: TestDb;
  const fixture = appPerFile(backend, { WEB_ORIGIN: 'https://care.example.org' });
  beforeAll(() => ({ t, tdb } = fixture));

  const db = () => tdb.adapter.db;
  const verify = (role: Role, token: string, password = PASSWORD) =>
    t.app.inject({ method: 'POST', url: `/${role}/verify-email/${token}`, payload: { password } });
  const resend = (role: Role, token?: string) =>
    t.app.inject({ method: 'POST', url: `/${role}/verify-email/resend`, headers: token ? bearer(token) : {} });
  const me = async (who: { role: Role; token: string }) =>
    (await t.app.inject({ method: 'GET', url: `/${who.role}/me`, headers: bearer(who.token) })).json()[who.role];
  const unverified = (role: Role, body: Record<string, unknown> = {}) => account(t, role, body, { verified: false });
  // the verification mails only: a doctor's sign-up also sets up two-factor, whose notice is mailed too
  const VERIFY_SUBJECT = 'Verify your CareLoop e-mail address';
  const verificationMails = async () => (await readOutbox(t)).filter((m) => m.headers.subject === VERIFY_SUBJECT);
  const mailsTo = async (email: string) => (await verificationMails()).filter((m) => m.headers.to === email);

  describe.each(['patient', 'doctor'] as const)('%s', (role) => {
    it('signup still answers { token, role } and mails WEB_ORIGIN/{role}/verify-email/{token}; only the hash is stored', async () => {
      const email = uniqueEmail(role);
      const res = await t.app.inject({
        method: 'POST',
        url: `/${role}/signup`,
        payload: { name: 'Vera Fied', email, password: PASSWORD, ...signupExtras(role) },
      });
      expect(res.statusCode).toBe(201);
      expect(Object.keys(res.json()).sort()).toEqual(['role', 'token']);
      const [mail] = await mailsTo(email);
      expect(mail.headers.subject).toBe(VERIFY_MAIL_SUBJECT);
      const link = new RegExp(`https://care\\.example\\.org/${role}/verify-email/([A-Za-z0-9_-]{43})`).exec(mail.text);
      expect(link).not.toBeNull();
      const rows = await db().select().from(accountTokens).where(eq(accountTokens.email, email));
      expect(rows).toHaveLength(1);
      expect(rows[0].tokenHash).toBe(createHash('sha256').update(link![1]).digest('hex'));
      expect(rows[0].tokenHash).not.toContain(link![1]);
      // 24 hours from now by the DATABASE's clock (lib/db-clock.ts; the test database runs on this host)
      expect(Math.abs(rows[0].expiresAt.getTime() - (Date.now() + 24 * HOUR))).toBeLessThan(60_000);
    });

    it('the link verifies once: emailVerified turns true, a security-log row, the second use 410 "already used"', async () => {
      const who = await unverified(role);
      expect((await me(who)).emailVerified).toBe(false);
      const token = await verificationTokenFor(t.app, role, who.email);
      const first = await verify(role, token);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: VERIFY_DONE });
      expect((await me(who)).emailVerified).toBe(true);
      const log = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, who.id), eq(auditLog.action, 'email-verify')));
      expect(log).toHaveLength(1);
      // Used, and the address is the account's, verified: said as such (sign in), with no password needed.
      const again = await verify(role, token, 'not the password');
      expect(again.statusCode).toBe(410);
      expect(again.json()).toEqual({ error: VERIFY_USED });
      expect(
        await db()
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.entityId, who.id), eq(auditLog.action, 'email-verify'))),
      ).toHaveLength(1);
      // The other role's path for the same link knows nothing of it.
      expect((await verify(other(role), token)).statusCode).toBe(400);
    });

    it('an older link of an address verified by a newer one says "already used" too; a spent link of another address stays invalid', async () => {
      const who = await unverified(role);
      const older = await verificationTokenFor(t.app, role, who.email);
      t.clock.advance(61_000);
      const resend = await t.app.inject({ method: 'POST', url: `/${role}/verify-email/resend`, headers: bearer(who.token) });
      expect(resend.statusCode).toBe(200);
      const newer = await verificationTokenFor(t.app, role, who.email);
      expect(newer).not.toBe(older);
      expect((await verify(role, newer)).statusCode).toBe(200);
      expect((await verify(role, older)).statusCode).toBe(410);

      // 409 'taken' spends a link whose address another account holds: nothing of this account is verified by it.
      const holder = await account(t, role);
      const loser = await unverified(role);
      const link = await issueEmailToken(db(), { role, accountId: loser.id, email: holder.email, now: t.clock.now() });
      expect((await verify(role, link)).statusCode).toBe(409);
      const spent = await verify(role, link);
      expect([spent.statusCode, spent.json()]).toEqual([400, { error: VERIFY_INVALID }]);
    });

    it('400 after 24 hours (test clock), and nothing changes', async () => {
      const who = await unverified(role);
      const token = await verificationTokenFor(t.app, role, who.email);
      t.clock.advance(24 * HOUR + 1);
      const res = await verify(role, token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: VERIFY_INVALID });
      // (The session has expired by now: the account is read directly.)
      const t2 = accountTables[role];
      const [row] = await db().select({ at: t2.emailVerifiedAt }).from(t2).where(eq(t2.id, who.id));
      expect(row.at).toBeNull();
    });

    it("400 for the other role's path, an unknown token and a malformed one", async () => {
      const who = await unverified(role);
      const token = await verificationTokenFor(t.app, role, who.email);
      const wrongRole = await verify(other(role), token);
      expect(wrongRole.statusCode).toBe(400);
      expect(wrongRole.json()).toEqual({ error: VERIFY_INVALID });
      expect((await verify(role, 'A'.repeat(43))).json()).toEqual({ error: VERIFY_INVALID });
      const malformed = await verify(role, 'short');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error).toMatch(/Invalid verification link/);
      // The right path still works afterwards: the failures spent nothing.
      expect((await verify(role, token)).statusCode).toBe(200);
    });

    it('409 when another account holds the address by now; the link is spent', async () => {
      const holder = await account(t, role);
      const who = await unverified(role);
      // A link for an address another account has (as an e-mail change would issue).
      const token = await issueEmailToken(db(), { role, accountId: who.id, email: holder.email, now: t.clock.now() });
      const res = await verify(role, token);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: VERIFY_TAKEN });
      expect((await me(who)).email).toBe(who.email);
      expect((await me(who)).emailVerified).toBe(false);
      expect((await verify(role, token)).statusCode).toBe(400);
    });

    it('two accounts confirming the same new address at once: one 200, the other 409 (never a 500)', async () => {
      const a = await unverified(role);
      const b = await unverified(role);
      const wanted = uniqueEmail(role);
      const now = t.clock.now();
      const tokenA = await issueEmailToken(db(), { role, accountId: a.id, email: wanted, now });
      const tokenB = await issueEmailToken(db(), { role, accountId: b.id, email: wanted, now });
      // Each opened in its owner's signed-in browser, whose session an e-mail change keeps.
      const verifyAs = (who: { token: string }, token: string) =>
        t.app.inject({
          method: 'POST',
          url: `/${role}/verify-email/${token}`,
          headers: bearer(who.token),
          payload: { password: PASSWORD },
        });
      const answers = await Promise.all([verifyAs(a, tokenA), verifyAs(b, tokenB)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.statusCode === 409)!.json()).toEqual({ error: VERIFY_TAKEN });
      const emails = [(await me(a)).email, (await me(b)).email];
      expect(emails.filter((e) => e === wanted)).toHaveLength(1);
    });

    it('resend: 429 within a minute of the last link, then a fresh link to the current address; 5 an hour', async () => {
      const who = await unverified(role);
      const soon = await resend(role, who.token);
      expect(soon.statusCode).toBe(429);
      expect(soon.json()).toEqual({ error: RESEND_TOO_SOON });
      expect(await mailsTo(who.email)).toHaveLength(1);

      for (let i = 2; i <= 5; i++) {
        t.clock.advance(61_000);
        const res = await resend(role, who.token);
        expect(res.statusCode).toBe(200);
        expect(res.json().message).toContain(who.email);
        expect(await mailsTo(who.email)).toHaveLength(i);
      }
      t.clock.advance(61_000);
      const tooMany = await resend(role, who.token);
      expect(tooMany.statusCode).toBe(429);
      expect(tooMany.json()).toEqual({ error: RESEND_TOO_MANY });
      expect(await mailsTo(who.email)).toHaveLength(5);

      // An hour after the first link, the count has room again; the newest link verifies.
      t.clock.advance(HOUR);
      expect((await resend(role, who.token)).statusCode).toBe(200);
      expect((await verify(role, await verificationTokenFor(t.app, role, who.email))).statusCode).toBe(200);
      expect((await me(who)).emailVerified).toBe(true);
    });

    it('resend: 409 once verified, 401 without a session, 403 for the other role; no mail', async () => {
      const who = await account(t, role);
      const before = (await verificationMails()).length;
      t.clock.advance(61_000);
      const done = await resend(role, who.token);
      expect(done.statusCode).toBe(409);
      expect(done.json()).toEqual({ error: ALREADY_VERIFIED });
      expect((await resend(role)).statusCode).toBe(401);
      const stranger = await unverified(other(role));
      t.clock.advance(61_000);
      expect((await resend(role, stranger.token)).statusCode).toBe(403);
      expect((await verificationMails()).length).toBe(before + 1); // the stranger's own signup mail only
    });
  });

  describe.each(['doctor', 'patient'] as const)('connection requests sent by a %s', (role) => {
    const ask = (from: Account, email: string) =>
      t.app.inject({ method: 'POST', url: requestPath(from.role), headers: bearer(from.token), payload: { email } });

    it('an unverified addressee gets exactly the answer of an unknown e-mail, and of an other-role e-mail', async () => {
      const sender = await account(t, role);
      const hidden = await unverified(other(role));
      const sameRole = await account(t, role);
      const unknown = await ask(sender, uniqueEmail('nobody'));
      const toHidden = await ask(sender, hidden.email);
      const toSameRole = await ask(sender, sameRole.email);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: noAccount(other(role)) });
      for (const res of [toHidden, toSameRole]) {
        expect(res.statusCode).toBe(unknown.statusCode);
        expect(res.body).toBe(unknown.body);
        expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
      }
      const rows = await db()
        .select()
        .from(connectionRequests)
        .where(eq(role === 'doctor' ? connectionRequests.doctorId : connectionRequests.patientId, sender.id));
      expect(rows).toHaveLength(0);
    });

    it('once the addressee verifies, the request goes through; the answer never names them', async () => {
      const sender = await account(t, role);
      const addressee = await unverified(other(role), { name: 'Zebulon Quartermaine' });
      expect((await ask(sender, addressee.email)).statusCode).toBe(404);
      expect((await verify(addressee.role, await verificationTokenFor(t.app, addressee.role, addressee.email))).statusCode).toBe(
        200,
      );
      const res = await ask(sender, addressee.email.toUpperCase());
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ message: requestSent(addressee.email) });
      expect(res.body).not.toMatch(/Zebulon|Quartermaine/);
    });

    it('403 for an unverified sender, whoever the addressee; nothing stored', async () => {
      const sender = await unverified(role);
      const addressee = await account(t, other(role));
      const before = await countRows(tdb.adapter, 'connection_requests');
      for (const email of [addressee.email, uniqueEmail('nobody')]) {
        const res = await ask(sender, email);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: VERIFY_FIRST });
      }
      expect(await countRows(tdb.adapter, 'connection_requests')).toBe(before);
    });

    it('400 for the own address (the same person holding both kinds of account is said plainly)', async () => {
      const sender = await account(t, role);
      const res = await ask(sender, sender.email);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: REQUEST_TO_SELF });
    });
  });

  describe('reminders', () => {
    const schedule = (doctor: Account, patient: Account) =>
      t.app.inject({
        method: 'POST',
        url: '/doctor/reminder',
        headers: bearer(doctor.token),
        payload: {
          to: patient.email,
          subject: 'Blood test',
          text: 'Please book your blood test.',
          startDate: new Date(t.clock.now().getTime() + 60_000).toISOString(),
          intervalDays: 0,
        },
      });

    it("409 for an assigned patient whose e-mail is unverified; 404 (as for any patient not theirs) for someone else's", async () => {
      const doctor = await account(t, 'doctor');
      const patient = await unverified('patient');
      await connect(t, doctor, patient);
      const before = await countRows(tdb.adapter, 'reminders');
      const res = await schedule(doctor, patient);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: PATIENT_EMAIL_UNVERIFIED });
      const stranger = await unverified('patient');
      const notMine = await schedule(doctor, stranger);
      expect(notMine.statusCode).toBe(404);
      expect(notMine.json()).toEqual({ error: NOT_YOUR_PATIENT });
      expect(await countRows(tdb.adapter, 'reminders')).toBe(before);
    });

    it('the runner sends nothing to an unverified address and gives the occurrence up (no retry)', async () => {
      const doctor = await account(t, 'doctor');
      const patient = await account(t, 'patient');
      await connect(t, doctor, patient);
      const res = await schedule(doctor, patient);
      expect(res.statusCode).toBe(201);
      // As for an account made before verification existed: the address is no longer proven.
      await db().update(patients).set({ emailVerifiedAt: null }).where(eq(patients.id, patient.id));
      const before = (await mailsTo(patient.email)).length;
      t.clock.advance(2 * 60_000);
      await runDueReminders({ db: db(), mailer: t.mailer, maxAttempts: 5, timeZone: 'UTC' }, t.clock.now());
      expect(await mailsTo(patient.email)).toHaveLength(before);
      const [delivery] = await deliveriesOf(db(), [res.json()._id]);
      expect(delivery.status).toBe('failed');
      expect(delivery.nextAttemptAt).toBeNull();
      expect(delivery.lastError).toMatch(/not verified/);
      // Later runs do not try it again.
      t.clock.advance(2 * HOUR);
      await runDueReminders({ db: db(), mailer: t.mailer, maxAttempts: 5, timeZone: 'UTC' }, t.clock.now());
      const rows = await db().select().from(reminderDeliveries).where(eq(reminderDeliveries.reminderId, res.json()._id));
      expect(rows.map((r) => [r.status, r.attempts])).toEqual([['failed', 1]]);
      expect(await mailsTo(patient.email)).toHaveLength(before);
    });
  });
});

describe.each(BACKENDS)('connection requests per hour on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend, { CONNECTION_REQUESTS_PER_HOUR: '3' });
  beforeAll(() => ({ t } = fixture));

  it('429 beyond CONNECTION_REQUESTS_PER_HOUR per sender (cancelled ones count); room again an hour later', async () => {
    const doctor = await account(t, 'doctor');
    const otherDoctor = await account(t, 'doctor');
    const ask = (from: Account, email: string) =>
      t.app.inject({ method: 'POST', url: '/doctor/requestPatient', headers: bearer(from.token), payload: { email } });
    const patients = [];
    for (let i = 0; i < 5; i++) patients.push(await account(t, 'patient'));
    for (const p of patients.slice(0, 3)) expect((await ask(doctor, p.email)).statusCode).toBe(201);
    // Cancelling does not give the request back.
    const sent = (await t.app.inject({ method: 'GET', url: '/doctor/sentRequests', headers: bearer(doctor.token) })).json() as {
      _id: string;
    }[];
    await t.app.inject({
      method: 'PATCH',
      url: `/doctor/responseRequest/${sent[0]._id}`,
      headers: bearer(doctor.token),
      payload: { action: 'reject' },
    });
    const fourth = await ask(doctor, patients[3].email);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ error: TOO_MANY_REQUESTS });
    // Unknown addresses are answered 429 too once over: no probing past the limit.
    expect((await ask(doctor, uniqueEmail('nobody'))).statusCode).toBe(429);
    // Another sender has a count of their own.
    expect((await ask(otherDoctor, patients[3].email)).statusCode).toBe(201);
    t.clock.advance(HOUR + 1);
    expect((await ask(doctor, patients[4].email)).statusCode).toBe(201);
  });

  it('asking unknown addresses spends the limit too: the fourth ask, to a real patient, is 429', async () => {
    const doctor = await account(t, 'doctor');
    const patient = await account(t, 'patient');
    const unverified = await signup(t.app, 'patient', {}, { verified: false });
    const ask = (email: string) =>
      t.app.inject({ method: 'POST', url: '/doctor/requestPatient', headers: bearer(doctor.token), payload: { email } });
    expect((await ask(uniqueEmail('nobody'))).statusCode).toBe(404);
    expect((await ask(uniqueEmail('nobody'))).statusCode).toBe(404);
    expect((await ask(unverified.email)).statusCode).toBe(404);
    const fourth = await ask(patient.email);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ error: TOO_MANY_REQUESTS });
    const sent = await t.app.inject({ method: 'GET', url: '/doctor/sentRequests', headers: bearer(doctor.token) });
    expect(sent.json()).toEqual([]);
    t.clock.advance(HOUR + 1);
    expect((await ask(patient.email)).statusCode).toBe(201);
  });

  it('signup helper opt-out: { verified: false } leaves the account unverified', async () => {
    const { token } = await signup(t.app, 'patient', {}, { verified: false });
    const res = await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(token) });
    expect(res.json().patient.emailVerified).toBe(false);
  });
});
