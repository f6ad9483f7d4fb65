import { sql } from 'drizzle-orm';
import { AuditPage, type Role } from '@careloop/shared-contracts';
import { selectRows } from '../../adapters/db';
import { account, connect, type Account } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer, PASSWORD, readOutbox, totpCode, type TestApp } from '../../test/helpers';

const LINK = /\/(patient|doctor)\/reset-password\/([0-9a-f-]+)\/([A-Za-z0-9_-]+)/;

describe.each(BACKENDS)('the security log on %s', (backend) => {
  let t: TestApp;
  // Password sign-ins of both roles, two-factor off: doctors are not forced here (mfa-required.test.ts is about that).
  const fixture = appPerFile(backend, { REQUIRE_MFA_FOR: 'none' });
  beforeAll(() => ({ t } = fixture));

  const historyOf = async (who: Account) => {
    const res = await t.app.inject({ method: 'GET', url: `/${who.role}/audit?limit=100`, headers: bearer(who.token) });
    expect(res.statusCode).toBe(200);
    return AuditPage.parse(res.json()).items;
  };
  /**
   * The account's security events, oldest first (its e-mail verification, which every fixture has,
   * and a doctor fixture's verified registration aside).
   */
  const securityOf = async (who: Account) =>
    (await historyOf(who))
      .filter((e) => e.kind === 'security' && e.action !== 'email-verify' && e.action !== 'registration-verified')
      .map((e) => e.action)
      .reverse();
  const login = (who: Account, password: string) =>
    t.app.inject({ method: 'POST', url: `/${who.role}/login`, payload: { email: who.email, password } });

  describe.each(['patient', 'doctor'] as const)('%s', (role: Role) => {
    it('records sign-in, a failed sign-in and sign-out, with the client address, to the owner only', async () => {
      const me = await account(t, role);
      const other = await account(t, role);
      expect((await login(me, 'wrong password entirely')).statusCode).toBe(401);
      const ok = await login(me, PASSWORD);
      expect(ok.statusCode).toBe(200);
      const session = { ...me, token: ok.json().token as string };
      expect((await t.app.inject({ method: 'POST', url: `/${role}/logout`, headers: bearer(session.token) })).statusCode).toBe(
        204,
      );

      expect(await securityOf(me)).toEqual(['sign-in-failed', 'sign-in', 'sign-out']);
      const [signOut] = await historyOf(me);
      expect(signOut).toMatchObject({ kind: 'security', entity: 'account', entityId: me.id, actorRole: role });
      expect(signOut.ip).toBe('127.0.0.1');
      expect(await securityOf(other)).toEqual([]);
    });

    it('records nothing for an unknown e-mail, and never the typed password or e-mail', async () => {
      const me = await account(t, role);
      const typed = 'a-secret-guess-1234';
      const unknown = await t.app.inject({
        method: 'POST',
        url: `/${role}/login`,
        payload: { email: 'nobody.here@example.com', password: typed },
      });
      expect(unknown.statusCode).toBe(401);
      await login(me, typed);
      const rows = await selectRows<Record<string, unknown>>(t.db.db, sql`select * from audit_log where entity = 'account'`);
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(typed);
      expect(dump).not.toContain('nobody.here');
      expect(dump).not.toContain(me.email);
    });

    it('records two-factor on, the two-factor sign-in and two-factor off', async () => {
      const me = await account(t, role);
      const { secret } = (await t.app.inject({ method: 'GET', url: `/${role}/qrCode`, headers: bearer(me.token) })).json();
      const on = await t.app.inject({
        method: 'POST',
        url: `/${role}/verifyqrCode`,
        headers: bearer(me.token),
        payload: { code: totpCode(secret, t.clock.now()) },
      });
      expect(on.json()).toMatchObject({ verify: true });
      const first = (await login(me, PASSWORD)).json();
      t.clock.advance(30_000); // the next step: the enrolment's code is not accepted twice
      const second = await t.app.inject({
        method: 'POST',
        url: `/${role}/verify2FA`,
        payload: { [`${role}Id`]: first[`${role}Id`], code: totpCode(secret, t.clock.now()) },
      });
      expect(second.statusCode).toBe(200);
      const off = await t.app.inject({
        method: 'POST',
        url: `/${role}/remove2FA`,
        headers: bearer(me.token),
        payload: { currentPassword: PASSWORD },
      });
      expect(off.statusCode).toBe(200);
      expect(await securityOf(me)).toEqual(['2fa-on', 'sign-in', '2fa-off']);
    });

    it('records a password change and an e-mail change made with PATCH /{role}/me', async () => {
      const me = await account(t, role);
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/${role}/me`,
        headers: bearer(me.token),
        payload: { email: `changed.${me.email}`, password: 'a brand new passphrase', currentPassword: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      const after = { ...me, token: res.json().token as string };
      expect((await securityOf(after)).sort()).toEqual(['email-change', 'password-change']);
      // Sending the same address again (the edit form does) is no e-mail change; the new one is
      // not in force until its link is used.
      const same = await t.app.inject({
        method: 'PATCH',
        url: `/${role}/me`,
        headers: bearer(after.token),
        payload: { email: me.email, name: 'Renamed Person' },
      });
      expect(same.statusCode).toBe(200);
      expect((await securityOf(after)).sort()).toEqual(['email-change', 'password-change']);
    });

    it('records a password reset', async () => {
      const me = await account(t, role);
      const before = (await readOutbox(t)).length;
      await t.app.inject({ method: 'POST', url: `/${role}/forgot-password`, payload: { email: me.email } });
      const mails = await readOutbox(t);
      expect(mails).toHaveLength(before + 1);
      const m = LINK.exec(mails[mails.length - 1].text);
      if (!m) throw new Error('no reset link');
      const reset = await t.app.inject({
        method: 'POST',
        url: `/${role}/reset-password/${m[2]}/${m[3]}`,
        payload: { password: 'another good passphrase' },
      });
      expect(reset.statusCode).toBe(200);
      const again = (await login(me, 'another good passphrase')).json();
      expect(await securityOf({ ...me, token: again.token })).toEqual(['password-reset', 'sign-in']);
    });
  });

  it('shows a revocation to both: the patient beside their security events, the doctor whose access ended', async () => {
    // Unverified (so no 'email-verify' or 'registration-verified' row): the doctor's log must hold nothing else of the patient's.
    const doctor = await account(t, 'doctor', {}, { verified: false, registrationVerified: false });
    const patient = await account(t, 'patient', {}, { verified: false });
    await connect(t, doctor, patient);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/patient/doctors/${doctor.id}`,
      headers: bearer(patient.token),
      remoteAddress: '203.0.113.9',
    });
    expect(res.statusCode).toBe(200);
    const items = await historyOf(patient);
    expect(items[0]).toMatchObject({ kind: 'access', action: 'revoke', entity: 'assignment', ip: '203.0.113.9' });
    const doctorItems = await historyOf(doctor);
    expect(doctorItems).toHaveLength(1);
    // The patient's address is theirs: the doctor whose access ended never sees it.
    expect(doctorItems[0]).toMatchObject({
      kind: 'access',
      action: 'revoke',
      entity: 'assignment',
      actorRole: 'patient',
      ip: null,
    });
    // Another doctor sees nothing of it.
    expect(await historyOf(await account(t, 'doctor', {}, { verified: false, registrationVerified: false }))).toEqual([]);
  });

  it.each(['patient', 'doctor'] as const)(
    '?kind= narrows a %s history to data access or to the security log, totals included',
    async (role) => {
      const doctor = await account(t, 'doctor');
      const patient = await account(t, 'patient');
      await connect(t, doctor, patient);
      // the patient reads and ends; both sign in once more
      expect((await login(patient, PASSWORD)).statusCode).toBe(200);
      expect((await login(doctor, PASSWORD)).statusCode).toBe(200);
      const res = await t.app.inject({ method: 'DELETE', url: `/patient/doctors/${doctor.id}`, headers: bearer(patient.token) });
      expect(res.statusCode).toBe(200);
      const me = role === 'patient' ? patient : doctor;
      const pageOf = async (query: string) => {
        const r = await t.app.inject({ method: 'GET', url: `/${role}/audit?limit=100${query}`, headers: bearer(me.token) });
        expect(r.statusCode).toBe(200);
        return AuditPage.parse(r.json());
      };
      const all = await pageOf('');
      const access = await pageOf('&kind=access');
      const security = await pageOf('&kind=security');
      expect(access.items.length).toBeGreaterThan(0);
      expect(security.items.length).toBeGreaterThan(0);
      expect(access.items.every((e) => e.kind === 'access')).toBe(true);
      expect(security.items.every((e) => e.kind === 'security')).toBe(true);
      expect(security.items.map((e) => e.action)).toContain('sign-in');
      expect(access.total + security.total).toBe(all.total);
      expect(
        (await t.app.inject({ method: 'GET', url: `/${role}/audit?kind=everything`, headers: bearer(me.token) })).statusCode,
      ).toBe(400);
    },
  );

  it('is append-only: UPDATE and DELETE of a security row are refused', async () => {
    const me = await account(t, 'patient');
    await login(me, 'wrong password entirely');
    for (const statement of [
      sql`update audit_log set ip = '10.0.0.1' where entity = 'account'`,
      sql`delete from audit_log where entity = 'account'`,
    ]) {
      const err = await t.db.db.execute(statement).then(
        () => undefined,
        (e: unknown) => e,
      );
      // the database's message may sit in the driver error's cause
      const messages: string[] = [];
      for (let e = err as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
        messages.push(String(e.message));
      expect(messages.join(' | ')).toMatch(/audit_log is append-only/);
    }
    expect(await securityOf(me)).toEqual(['sign-in-failed']);
  });

  it('GET /doctor/audit is the doctor’s alone: a patient gets 403, no token 401, a bad page 400', async () => {
    const patient = await account(t, 'patient');
    expect((await t.app.inject({ method: 'GET', url: '/doctor/audit', headers: bearer(patient.token) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/doctor/audit' })).statusCode).toBe(401);
    const doctor = await account(t, 'doctor');
    expect((await t.app.inject({ method: 'GET', url: '/doctor/audit?page=0', headers: bearer(doctor.token) })).statusCode).toBe(
      400,
    );
  });
});
