import { sql } from 'drizzle-orm';
import {
  CURRENT_PASSWORD_REQUIRED,
  CURRENT_PASSWORD_WRONG,
  DUPLICATE_EMAIL,
  TWO_FACTOR_ALREADY_ON,
  TWO_FACTOR_CODE_WRONG,
  type Role,
} from '@careloop/shared-contracts';
import { selectRows } from '../../../adapters/db';
import {
  appPerFile,
  BACKENDS,
  bearer,
  countRows,
  PASSWORD,
  readOutbox,
  signup,
  totpCode,
  uniqueEmail,
  type OutboxMessage,
  type TestApp,
} from '../../../test/helpers';
import { VERIFY_MAIL_SUBJECT } from '../email-verification/messages';
import { consumeEmailToken } from '../email-verification/tokens';
import { maskEmail, NOTICES } from '../notices';
import { TWO_FACTOR_DISABLED } from '../two-factor/routes';

// Issue 11, "Re-authentication and notice": a session alone changes neither the password nor the
// e-mail, nor turns two-factor off or re-enrols it; each such change is mailed to the owner.

const STEP = 30_000;
const NEW_PASSWORD = 'an entirely new passphrase';
const WRONG_PASSWORD = 'not the password at all';
const LINK = /\/(patient|doctor)\/verify-email\/([A-Za-z0-9_-]+)/;
const SUBJECT = {
  passwordChanged: NOTICES.passwordChanged({ webOrigin: '', role: 'patient' }).subject,
  emailChangeAsked: NOTICES.emailChangeAsked({ webOrigin: '', role: 'patient' }, 'x').subject,
  confirmNewEmail: NOTICES.confirmNewEmail('', 24).subject,
  emailChanged: NOTICES.emailChanged({ webOrigin: '', role: 'patient' }, 'x').subject,
  twoFactorOn: NOTICES.twoFactorOn({ webOrigin: '', role: 'patient' }).subject,
  twoFactorOff: NOTICES.twoFactorOff({ webOrigin: '', role: 'patient' }).subject,
};

describe.each(BACKENDS)('re-authentication and notices on %s', (backend) => {
  let t: TestApp;
  // about re-authentication and 2FA turned on and off by hand: no role is forced to have it
  const fixture = appPerFile(backend, { REQUIRE_MFA_FOR: 'none' });
  beforeAll(() => ({ t } = fixture));

  const me = (role: Role, token: string) => t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(token) });
  const patchMe = (role: Role, token: string, payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/${role}/me`, headers: bearer(token), payload });
  const login = (role: Role, email: string, password = PASSWORD) =>
    t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password } });
  const remove2FA = (role: Role, token: string, payload?: object) =>
    t.app.inject({ method: 'POST', url: `/${role}/remove2FA`, headers: bearer(token), ...(payload ? { payload } : {}) });
  const qr = (role: Role, token: string) => t.app.inject({ method: 'GET', url: `/${role}/qrCode`, headers: bearer(token) });
  const codeAt = (secret: string, offsetMs = 0) => totpCode(secret, new Date(t.clock.now().getTime() + offsetMs));

  /** The mails sent since `before` (a count of the outbox), to one address. */
  // The signup fixture follows its verification link: that mail and row are not what these tests watch.
  async function mailsTo(address: string, before: number): Promise<OutboxMessage[]> {
    return (await readOutbox(t))
      .slice(before)
      .filter((m) => m.headers.to === address && m.headers.subject !== VERIFY_MAIL_SUBJECT);
  }
  const outboxSize = async () => (await readOutbox(t)).length;
  const accountTokenCount = async () =>
    Number((await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from account_tokens`))[0].n);

  async function securityActions(role: Role, token: string): Promise<string[]> {
    const id = (await me(role, token)).json()[role]._id as string;
    const rows = await selectRows<{ action: string }>(
      t.db.db,
      sql`select action from audit_log where entity = 'account' and entity_id = ${id} and action not in ('email-verify', 'registration-verified') order by id`,
    );
    return rows.map((r) => r.action);
  }

  /** Signs up and turns two-factor on; the clock then moves one step on, past the accepted code. */
  async function withTwoFactor(role: Role) {
    const account = await signup(t.app, role);
    const setup = (await qr(role, account.token)).json();
    const on = await t.app.inject({
      method: 'POST',
      url: `/${role}/verifyqrCode`,
      headers: bearer(account.token),
      payload: { code: codeAt(setup.secret) },
    });
    expect(on.json()).toMatchObject({ verify: true });
    t.clock.advance(STEP);
    return { ...account, secret: setup.secret as string };
  }
  const twoFactorOf = async (role: Role, token: string) => (await me(role, token)).json()[role].twoFactorEnabled as boolean;

  describe.each(['patient', 'doctor'] as const)('%s', (role) => {
    describe('PATCH /%s/me', () => {
      it('changes the name without the current password, and mails nothing', async () => {
        const { token } = await signup(t.app, role);
        const before = await outboxSize();
        const res = await patchMe(role, token, { name: 'Only A Rename' });
        expect(res.statusCode).toBe(200);
        expect(res.json()[role].name).toBe('Only A Rename');
        expect(res.json().token).toBeUndefined();
        expect(await outboxSize()).toBe(before);
      });

      it('refuses a new password without the current one (400 on currentPassword), changing nothing', async () => {
        const { token, email } = await signup(t.app, role);
        const sessions = await countRows(t.db, 'sessions');
        const res = await patchMe(role, token, { password: NEW_PASSWORD, name: 'Should Not Stick' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: `currentPassword: ${CURRENT_PASSWORD_REQUIRED}` });
        expect((await me(role, token)).json()[role].name).toBe(`Test ${role}`);
        expect(await countRows(t.db, 'sessions')).toBe(sessions);
        expect((await login(role, email)).statusCode).toBe(200);
      });

      it('refuses a new password with a wrong current one (403), changing nothing and mailing nothing', async () => {
        const { token, email } = await signup(t.app, role);
        const before = await outboxSize();
        const res = await patchMe(role, token, { password: NEW_PASSWORD, currentPassword: WRONG_PASSWORD });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: CURRENT_PASSWORD_WRONG });
        expect((await me(role, token)).statusCode).toBe(200); // the session lives on
        expect((await login(role, email)).statusCode).toBe(200);
        expect((await login(role, email, NEW_PASSWORD)).statusCode).toBe(401);
        expect(await outboxSize()).toBe(before);
        expect(await securityActions(role, token)).not.toContain('password-change');
      });

      it('changes the password with the right current one and mails a notice to the account', async () => {
        const { token, email } = await signup(t.app, role);
        const before = await outboxSize();
        const res = await patchMe(role, token, { password: NEW_PASSWORD, currentPassword: PASSWORD });
        expect(res.statusCode).toBe(200);
        expect(res.json().token).toEqual(expect.any(String));
        expect((await login(role, email, NEW_PASSWORD)).statusCode).toBe(200);
        const notices = await mailsTo(email, before);
        expect(notices.map((m) => m.headers.subject)).toEqual([SUBJECT.passwordChanged]);
        expect(notices[0].text).toContain('password of your CareLoop account was just changed');
        expect(notices[0].text).toContain(`${t.config.webOrigin}/${role}/forgot-password`);
        expect(notices[0].text).not.toContain(NEW_PASSWORD);
        expect(await outboxSize()).toBe(before + 1);
      });

      it('locks re-authentication after 5 wrong current passwords (429), even for the right one', async () => {
        const { token, email } = await signup(t.app, role);
        for (let i = 0; i < 5; i++) {
          const res = await patchMe(role, token, { password: NEW_PASSWORD, currentPassword: `${WRONG_PASSWORD} ${i}` });
          expect(res.statusCode).toBe(403);
        }
        const locked = await patchMe(role, token, { password: NEW_PASSWORD, currentPassword: PASSWORD });
        expect(locked.statusCode).toBe(429);
        expect(locked.json().error).toMatch(/^Too many failed attempts/);
        expect((await login(role, email)).statusCode).toBe(429); // one count with the login form
        t.clock.advance(15 * 60_000 + 1_000);
        expect((await patchMe(role, token, { password: NEW_PASSWORD, currentPassword: PASSWORD })).statusCode).toBe(200);
      });

      it('refuses a new e-mail without the current password (400) or with a wrong one (403)', async () => {
        const { token, email } = await signup(t.app, role);
        const fresh = uniqueEmail('moved');
        const before = await outboxSize();
        const missing = await patchMe(role, token, { email: fresh });
        expect(missing.statusCode).toBe(400);
        expect(missing.json()).toEqual({ error: `currentPassword: ${CURRENT_PASSWORD_REQUIRED}` });
        const wrong = await patchMe(role, token, { email: fresh, currentPassword: WRONG_PASSWORD });
        expect(wrong.statusCode).toBe(403);
        expect(wrong.json()).toEqual({ error: CURRENT_PASSWORD_WRONG });
        const profile = (await me(role, token)).json()[role];
        expect([profile.email, profile.pendingEmail]).toEqual([email, null]);
        expect(await outboxSize()).toBe(before);
        expect(await securityActions(role, token)).not.toContain('email-change');
      });

      it('sends the same e-mail (any case) without a password: no change', async () => {
        const { token, email } = await signup(t.app, role);
        const res = await patchMe(role, token, { email: email.toUpperCase(), name: 'Same Address' });
        expect(res.statusCode).toBe(200);
        expect(res.json()[role]).toMatchObject({ email, pendingEmail: null, name: 'Same Address' });
      });

      it('a new e-mail waits for its link: mailed to the new address, the old one told, in force once used', async () => {
        const { token, email } = await signup(t.app, role);
        const fresh = uniqueEmail('moved');
        const before = await outboxSize();
        const res = await patchMe(role, token, { email: fresh.toUpperCase(), currentPassword: PASSWORD });
        expect(res.statusCode).toBe(200);
        expect(res.json()[role]).toMatchObject({ email, pendingEmail: fresh });
        expect(res.json().token).toBeUndefined(); // no password change: the session lives on
        expect((await me(role, token)).json()[role]).toMatchObject({ email, pendingEmail: fresh });
        expect(await securityActions(role, token)).toContain('email-change');

        // The account keeps its old address until the link is used.
        expect((await login(role, email)).statusCode).toBe(200);
        expect((await login(role, fresh)).statusCode).toBe(401);

        const toNew = await mailsTo(fresh, before);
        expect(toNew.map((m) => m.headers.subject)).toEqual([SUBJECT.confirmNewEmail]);
        const link = LINK.exec(toNew[0].text);
        expect(link?.[1]).toBe(role);
        expect(toNew[0].text).toContain(`${t.config.webOrigin}/${role}/verify-email/`);
        const toOld = await mailsTo(email, before);
        expect(toOld.map((m) => m.headers.subject)).toEqual([SUBJECT.emailChangeAsked]);
        expect(toOld[0].text).toContain(`to ${maskEmail(fresh)} was asked`);
        expect(toOld[0].text).not.toContain(fresh);
        expect(toOld[0].text).not.toMatch(LINK); // the link goes only to the new address
        expect(await outboxSize()).toBe(before + 2);

        // The link, used through the page's endpoint (in the signed-in browser, whose session stays):
        // the new address is in force, the old one is told.
        const used = await t.app.inject({
          method: 'POST',
          url: `/${role}/verify-email/${link![2]}`,
          headers: bearer(token),
          payload: { password: PASSWORD },
        });
        expect(used.statusCode).toBe(200);
        expect((await me(role, token)).json()[role]).toMatchObject({ email: fresh, pendingEmail: null, emailVerified: true });
        expect((await login(role, fresh)).statusCode).toBe(200);
        expect((await login(role, email)).statusCode).toBe(401);
        const changed = (await mailsTo(email, before)).slice(1);
        expect(changed.map((m) => m.headers.subject)).toEqual([SUBJECT.emailChanged]);
        expect(changed[0].text).toContain(`is now ${maskEmail(fresh)}`);
      });

      it('a later new e-mail replaces a waiting one: the first link is dead', async () => {
        const { token } = await signup(t.app, role);
        const [first, second] = [uniqueEmail('first'), uniqueEmail('second')];
        const before = await outboxSize();
        expect((await patchMe(role, token, { email: first, currentPassword: PASSWORD })).statusCode).toBe(200);
        expect((await patchMe(role, token, { email: second, currentPassword: PASSWORD })).json()[role].pendingEmail).toBe(second);
        const [firstMail] = await mailsTo(first, before);
        const outcome = await t.db.db.transaction((tx) =>
          consumeEmailToken(tx, role, LINK.exec(firstMail.text)![2], t.clock.now()),
        );
        expect(outcome).toEqual({ ok: false, reason: 'invalid' });
        expect((await me(role, token)).json()[role].pendingEmail).toBe(second);
      });

      it('shows no pending e-mail once its link has expired', async () => {
        const { token, email } = await signup(t.app, role);
        const fresh = uniqueEmail('late');
        await patchMe(role, token, { email: fresh, currentPassword: PASSWORD });
        expect((await me(role, token)).json()[role].pendingEmail).toBe(fresh);
        t.clock.advance(24 * 3_600_000 + 1_000);
        const later = (await login(role, email)).json().token as string; // past the session's lifetime too
        expect((await me(role, later)).json()[role]).toMatchObject({ email, pendingEmail: null });
      });

      it('refuses an address another account of the role has (409) when asked, mailing nothing', async () => {
        const taken = await signup(t.app, role);
        const { token, email } = await signup(t.app, role);
        const before = await outboxSize();
        const tokens = await accountTokenCount();
        const res = await patchMe(role, token, { email: taken.email, currentPassword: PASSWORD });
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ error: DUPLICATE_EMAIL });
        expect((await me(role, token)).json()[role]).toMatchObject({ email, pendingEmail: null });
        expect(await accountTokenCount()).toBe(tokens);
        expect(await outboxSize()).toBe(before);
      });
    });

    describe('two-factor', () => {
      it('mails a notice when two-factor goes on', async () => {
        const before = await outboxSize();
        const { email } = await withTwoFactor(role);
        const notices = await mailsTo(email, before);
        expect(notices.map((m) => m.headers.subject)).toEqual([SUBJECT.twoFactorOn]);
      });

      it('refuses a new QR code while two-factor is on (409)', async () => {
        const { token } = await withTwoFactor(role);
        const res = await qr(role, token);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ error: TWO_FACTOR_ALREADY_ON });
      });

      it('turns off with a current code, mails a notice, and then allows a new QR code', async () => {
        const { token, email, secret } = await withTwoFactor(role);
        const before = await outboxSize();
        const res = await remove2FA(role, token, { code: codeAt(secret) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: TWO_FACTOR_DISABLED });
        expect(await twoFactorOf(role, token)).toBe(false);
        expect((await mailsTo(email, before)).map((m) => m.headers.subject)).toEqual([SUBJECT.twoFactorOff]);
        expect(await securityActions(role, token)).toEqual(['2fa-on', '2fa-off']);
        expect((await qr(role, token)).statusCode).toBe(200);
      });

      it('refuses a wrong code (403), and a code already used (no replay), staying on', async () => {
        const { token, secret } = await withTwoFactor(role);
        const right = codeAt(secret);
        const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
        const res = await remove2FA(role, token, { code: wrong });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: TWO_FACTOR_CODE_WRONG });
        expect(await twoFactorOf(role, token)).toBe(true);
        // The code that turned it on (one step back) was used already.
        const replay = await remove2FA(role, token, { code: codeAt(secret, -STEP) });
        expect(replay.statusCode).toBe(403);
        expect(await twoFactorOf(role, token)).toBe(true);
      });

      it('counts wrong codes toward the two-factor lock (429 after 5), even for a right one', async () => {
        const { token, secret } = await withTwoFactor(role);
        for (let i = 0; i < 5; i++) {
          expect((await remove2FA(role, token, { code: String(100000 + i) })).statusCode).toBe(403);
        }
        const locked = await remove2FA(role, token, { code: codeAt(secret) });
        expect(locked.statusCode).toBe(429);
        expect(await twoFactorOf(role, token)).toBe(true);
      });

      it('turns off with the current password (a lost phone), and refuses a wrong one (403)', async () => {
        const { token, email } = await withTwoFactor(role);
        const before = await outboxSize();
        const wrong = await remove2FA(role, token, { currentPassword: WRONG_PASSWORD });
        expect(wrong.statusCode).toBe(403);
        expect(wrong.json()).toEqual({ error: CURRENT_PASSWORD_WRONG });
        expect(await twoFactorOf(role, token)).toBe(true);
        expect(await outboxSize()).toBe(before);
        const right = await remove2FA(role, token, { currentPassword: PASSWORD });
        expect(right.statusCode).toBe(200);
        expect(await twoFactorOf(role, token)).toBe(false);
        expect((await mailsTo(email, before)).map((m) => m.headers.subject)).toEqual([SUBJECT.twoFactorOff]);
      });

      it.each([
        ['no body', undefined],
        ['an empty body', {}],
        ['both a code and a password', { code: '123456', currentPassword: PASSWORD }],
        ['a malformed code', { code: '12ab56' }],
        ['an empty password', { currentPassword: '' }],
      ])('refuses %s with 400, staying on', async (_label, payload) => {
        const { token } = await withTwoFactor(role);
        const res = await remove2FA(role, token, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual(expect.any(String));
        expect(await twoFactorOf(role, token)).toBe(true);
      });

      it('with two-factor off, a right password answers 200 and mails nothing', async () => {
        const { token } = await signup(t.app, role);
        const before = await outboxSize();
        expect((await remove2FA(role, token, { currentPassword: PASSWORD })).statusCode).toBe(200);
        expect(await outboxSize()).toBe(before);
        expect(await securityActions(role, token)).not.toContain('2fa-off');
      });
    });
  });
});
