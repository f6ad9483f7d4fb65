import { and, eq } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import { CURRENT_PASSWORD_WRONG } from '@careloop/shared-contracts';
import { accountTables, auditLog } from '../../../db/schema';
import { account, type Account } from '../../../test/clinical';
import {
  appPerFile,
  BACKENDS,
  bearer,
  logIn,
  PASSWORD,
  readOutbox,
  uniqueEmail,
  verificationTokenFor,
  type TestApp,
} from '../../../test/helpers';
import { plantedLeft, plantInPatient, WIPED } from '../../../test/takeover';
import { DISOWN_CHANGE_DONE, DISOWN_DONE, VERIFY_DONE, VERIFY_INVALID } from '../email-verification/messages';
import { issueHandoffCode } from '../handoff/codes';
import { RESET_INVALID } from '../password-reset/routes';

const NEW_PASSWORD = 'a fresh and long passphrase';
const OWNER_PASSWORD = 'the real owner passphrase';
const RESET_LINK = /\/(patient|doctor)\/reset-password\/([0-9a-f-]{36})\/([A-Za-z0-9_-]+)/;

describe.each(BACKENDS)('tokens bound to the account, verification with the password, takeover on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t } = fixture));

  const login = (role: Role, email: string, password = PASSWORD) =>
    t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password } });
  const me = (who: { role: Role; token: string }) =>
    t.app.inject({ method: 'GET', url: `/${who.role}/me`, headers: bearer(who.token) });
  const patchMe = (who: Account, body: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/${who.role}/me`, headers: bearer(who.token), payload: body });
  // opened without a session: a confirmed change then ends every session of the account
  const verify = (role: Role, token: string, body: unknown = { password: PASSWORD }, session?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/${role}/verify-email/${token}`,
      payload: body as object,
      ...(session ? { headers: bearer(session) } : {}),
    });
  const disown = (role: Role, token: string) => t.app.inject({ method: 'POST', url: `/${role}/verify-email/${token}/disown` });
  const withdraw = (who: Account) =>
    t.app.inject({ method: 'DELETE', url: `/${who.role}/me/pending-email`, headers: bearer(who.token) });
  const reset = (role: Role, id: string, token: string, password = NEW_PASSWORD) =>
    t.app.inject({ method: 'POST', url: `/${role}/reset-password/${id}/${token}`, payload: { password } });
  async function resetLinkFor(role: Role, email: string) {
    expect((await t.app.inject({ method: 'POST', url: `/${role}/forgot-password`, payload: { email } })).statusCode).toBe(200);
    await t.app.backgroundTasks.idle();
    const mail = (await readOutbox(t)).reverse().find((m) => m.headers.to === email && RESET_LINK.test(m.text));
    const [, , id, token] = RESET_LINK.exec(mail!.text)!;
    t.clock.advance(61_000); // the next reset mail to this account may go out
    return { id, token };
  }
  const securityOf = async (id: string) =>
    (
      await t.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, id), eq(auditLog.entity, 'account')))
    ).map((r) => r.action);
  const exists = async (role: Role, id: string) => {
    const tbl = accountTables[role];
    return (await t.db.db.select({ id: tbl.id }).from(tbl).where(eq(tbl.id, id))).length === 1;
  };

  describe.each(['patient', 'doctor'] as const)('%s', (role) => {
    it('a reset link sent before an e-mail change is refused once the change is in force', async () => {
      const who = await account(t, role);
      const link = await resetLinkFor(role, who.email);
      const fresh = uniqueEmail(role);
      expect((await patchMe(who, { email: fresh, currentPassword: PASSWORD })).statusCode).toBe(200);
      // Asked for only: the address is unchanged, the link still good — until the new address is confirmed.
      expect((await verify(role, await verificationTokenFor(t.app, role, fresh))).statusCode).toBe(200);
      const res = await reset(role, link.id, link.token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: RESET_INVALID });
      expect((await login(role, fresh)).statusCode).toBe(200);
      expect((await login(role, fresh, NEW_PASSWORD)).statusCode).toBe(401);
    });

    it('a reset link is void after a password change', async () => {
      const who = await account(t, role);
      const link = await resetLinkFor(role, who.email);
      expect((await patchMe(who, { password: NEW_PASSWORD, currentPassword: PASSWORD })).statusCode).toBe(200);
      expect((await reset(role, link.id, link.token, 'yet another long passphrase')).statusCode).toBe(400);
      expect((await login(role, who.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('a verification link for a pending e-mail change is void after a password reset; the change is no longer shown', async () => {
      const who = await account(t, role);
      const fresh = uniqueEmail(role);
      expect((await patchMe(who, { email: fresh, currentPassword: PASSWORD })).statusCode).toBe(200);
      const changeLink = await verificationTokenFor(t.app, role, fresh);
      const link = await resetLinkFor(role, who.email);
      expect((await reset(role, link.id, link.token)).statusCode).toBe(200);
      const res = await verify(role, changeLink, { password: NEW_PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: VERIFY_INVALID });
      const session = await logIn(t.app, role, who.email, NEW_PASSWORD);
      expect((await me({ role, token: session })).json()[role]).toMatchObject({ email: who.email, pendingEmail: null });
    });

    it('a hand-off code is void once the password changed after it was issued', async () => {
      const who = await account(t, role);
      const code = await issueHandoffCode(t.db.db, role, who.id, t.clock.now());
      expect((await patchMe(who, { password: NEW_PASSWORD, currentPassword: PASSWORD })).statusCode).toBe(200);
      const res = await t.app.inject({ method: 'POST', url: `/${role}/auth/exchange`, payload: { code } });
      expect(res.statusCode).toBe(400);
    });

    it('verifying needs the password: missing 400, wrong 403 (nothing spent, counted as a failed login), right 200', async () => {
      const who = await account(t, role, {}, { verified: false });
      const token = await verificationTokenFor(t.app, role, who.email);
      expect((await verify(role, token, {})).statusCode).toBe(400);
      const wrong = await verify(role, token, { password: 'not the password at all' });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({ error: CURRENT_PASSWORD_WRONG });
      expect((await me(who)).json()[role].emailVerified).toBe(false);
      // Four more wrong ones lock the pair out, as at the login form.
      for (let i = 0; i < 4; i++) await verify(role, token, { password: 'not the password at all' });
      expect((await verify(role, token)).statusCode).toBe(429);
      expect((await login(role, who.email)).statusCode).toBe(429);
      t.clock.advance(16 * 60_000);
      const ok = await verify(role, token);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ message: VERIFY_DONE });
      expect((await me(who)).json()[role].emailVerified).toBe(true);
    });

    it('"I did not create this account" deletes the unverified account; the link then is spent', async () => {
      const who = await account(t, role, {}, { verified: false });
      const token = await verificationTokenFor(t.app, role, who.email);
      const res = await disown(role, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: DISOWN_DONE });
      expect(await exists(role, who.id)).toBe(false);
      expect((await login(role, who.email)).statusCode).toBe(401);
      expect((await me(who)).statusCode).toBe(401);
      expect((await disown(role, token)).statusCode).toBe(400);
    });

    it('a verified account is never deleted from a link: an old signup link is void, a change link drops only the change', async () => {
      const who = await account(t, role, {}, { verified: false });
      const signupLink = await verificationTokenFor(t.app, role, who.email);
      expect((await verify(role, signupLink)).statusCode).toBe(200);
      expect((await disown(role, signupLink)).statusCode).toBe(400);
      const fresh = uniqueEmail(role);
      expect((await patchMe(who, { email: fresh, currentPassword: PASSWORD })).statusCode).toBe(200);
      const changeLink = await verificationTokenFor(t.app, role, fresh);
      const res = await disown(role, changeLink);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: DISOWN_CHANGE_DONE });
      expect(await exists(role, who.id)).toBe(true);
      expect((await me(who)).json()[role]).toMatchObject({ email: who.email, pendingEmail: null, emailVerified: true });
      expect((await verify(role, changeLink)).statusCode).toBe(400);
      expect((await login(role, who.email)).statusCode).toBe(200);
    });

    it('withdraws a pending e-mail change: its link dies, the log says so; 404 when none waits; 401/403 for others', async () => {
      const who = await account(t, role);
      expect((await withdraw(who)).statusCode).toBe(404);
      const fresh = uniqueEmail(role);
      expect((await patchMe(who, { email: fresh, currentPassword: PASSWORD })).statusCode).toBe(200);
      const link = await verificationTokenFor(t.app, role, fresh);
      const other = await account(t, role === 'patient' ? 'doctor' : 'patient');
      expect((await t.app.inject({ method: 'DELETE', url: `/${role}/me/pending-email` })).statusCode).toBe(401);
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/${role}/me/pending-email`, headers: bearer(other.token) })).statusCode,
      ).toBe(403);
      expect((await me(who)).json()[role].pendingEmail).toBe(fresh);
      const res = await withdraw(who);
      expect(res.statusCode).toBe(200);
      expect((await me(who)).json()[role].pendingEmail).toBeNull();
      expect((await verify(role, link)).statusCode).toBe(400);
      expect(await securityOf(who.id)).toContain('email-change-withdrawn');
      expect((await withdraw(who)).statusCode).toBe(404);
    });

    it('a second e-mail change supersedes the first: the older link is void', async () => {
      const who = await account(t, role);
      const first = uniqueEmail(role);
      const second = uniqueEmail(role);
      expect((await patchMe(who, { email: first, currentPassword: PASSWORD })).statusCode).toBe(200);
      const firstLink = await verificationTokenFor(t.app, role, first);
      expect((await patchMe(who, { email: second, currentPassword: PASSWORD })).statusCode).toBe(200);
      expect((await verify(role, firstLink)).statusCode).toBe(400);
      const opened = await verify(role, await verificationTokenFor(t.app, role, second), { password: PASSWORD }, who.token);
      expect(opened.statusCode).toBe(200);
      expect((await me(who)).json()[role].email).toBe(second);
    });
  });

  it("the owner's password reset on an unverified account wipes what the squatter planted, in one go", async () => {
    const victim = uniqueEmail('victim');
    const squatter = await account(t, 'patient', { email: victim, name: 'Squatter' }, { verified: false });
    const doctor = await account(t, 'doctor');
    const planted = await plantInPatient(t, squatter, doctor.id);
    const before = await plantedLeft(t, squatter.id, planted);
    expect(before).toMatchObject({ files: 1, stored: true, allergies: 1, recoveryCodes: 1, requests: 1, assignments: 1 });

    const link = await resetLinkFor('patient', victim);
    expect((await reset('patient', link.id, link.token, OWNER_PASSWORD)).statusCode).toBe(200);
    await t.app.backgroundTasks.idle();

    const after = await plantedLeft(t, squatter.id, planted);
    expect(after).toMatchObject(WIPED);
    expect(after.profile).toEqual({ occupation: '', city: '', dob: null, verified: true });
    expect((await me(squatter)).statusCode).toBe(401);
    expect((await login('patient', victim)).statusCode).toBe(401);
    expect((await login('patient', victim, OWNER_PASSWORD)).statusCode).toBe(200);
    expect(await securityOf(squatter.id)).toEqual(expect.arrayContaining(['takeover', 'password-reset']));
    const notice = (await readOutbox(t)).find((m) => m.headers.to === victim && /took over/.test(m.headers.subject ?? ''));
    expect(notice?.text).toContain('Everything the earlier holder had set was removed');
  });

  it('a reset on a verified account wipes nothing', async () => {
    const who = await account(t, 'patient');
    const doctor = await account(t, 'doctor');
    const planted = await plantInPatient(t, who, doctor.id);
    const link = await resetLinkFor('patient', who.email);
    expect((await reset('patient', link.id, link.token)).statusCode).toBe(200);
    await t.app.backgroundTasks.idle();
    expect(await plantedLeft(t, who.id, planted)).toMatchObject({ files: 1, stored: true, allergies: 1, assignments: 1 });
    expect(await securityOf(who.id)).not.toContain('takeover');
  });

  it('"I did not create this account" removes the unverified patient\'s files, allergies and connections with it', async () => {
    const squatter = await account(t, 'patient', {}, { verified: false });
    const doctor = await account(t, 'doctor');
    const planted = await plantInPatient(t, squatter, doctor.id);
    expect((await disown('patient', await verificationTokenFor(t.app, 'patient', squatter.email))).statusCode).toBe(200);
    await t.app.backgroundTasks.idle();
    const left = await plantedLeft(t, squatter.id, planted);
    expect(left).toMatchObject(WIPED);
    expect(left.profile).toBeUndefined();
  });
});
