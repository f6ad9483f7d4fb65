import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { WEAK_PASSWORD } from '@careloop/shared-contracts';
import {
  appPerFile,
  BACKENDS,
  PASSWORD,
  bearer,
  countRows,
  readOutbox,
  signup,
  uniqueEmail,
  type TestApp,
  signupExtras,
} from '../test/helpers';
import { judgePassword } from './password-strength';

type Role = 'patient' | 'doctor';
const ROLES: Role[] = ['patient', 'doctor'];

// Issue 11: the old ~50-word list let these through.
const COMMON = ['football', 'qwerty12', 'Password2024', 'letmein123', 'password1'];
const STRONG = 'plum ferry cactus lantern';
// No composition rule: lower-case letters and spaces only, and long.
const LOWERCASE_PASSPHRASE = 'quiet otters braid seventeen lanterns';
const REFUSAL = new RegExp(`^password: ${WEAK_PASSWORD.replace('.', '\\.')} \\S.+`);

/** A person whose name is in no dictionary: only their own account knows it. */
function zorblax() {
  const tag = randomBytes(3).toString('hex');
  return { name: 'Zorblax Quintero', email: `zorblaxq.${tag}@example.com` };
}
// Built from that person's name and e-mail; strong for anybody else.
const OWN_NAME_PASSWORDS = ['zorblaxquintero2024', 'ZorblaxQuintero1'];
const OWN_EMAIL_PASSWORD = (email: string) => `${email.split('@')[0]}1990`;

describe('judgePassword (zxcvbn, score ≥ 3)', () => {
  it.each(COMMON)('refuses %s with the library feedback', (password) => {
    const verdict = judgePassword(password, []);
    expect(verdict.strong).toBe(false);
    expect(verdict.score).toBeLessThan(3);
    expect(verdict.feedback.length).toBeGreaterThan(0);
  });

  it('accepts a passphrase of common words, with no composition rule', () => {
    for (const password of [STRONG, LOWERCASE_PASSPHRASE]) {
      expect(judgePassword(password, [])).toEqual({ score: expect.any(Number), strong: true, feedback: [] });
    }
  });

  it("refuses a password built from the account's own name or e-mail, which a stranger may use", () => {
    const who = zorblax();
    for (const password of [...OWN_NAME_PASSWORDS, OWN_EMAIL_PASSWORD(who.email)]) {
      expect(judgePassword(password, [who.name, who.email]).strong).toBe(false);
      expect(judgePassword(password, ['Ann Lee', 'ann.lee@example.com']).strong).toBe(true);
    }
    expect(judgePassword('zorblaxquintero2024', [who.name, who.email]).feedback).toContain(
      'There should not be any personal or page related data.',
    );
  });
});

describe.each(BACKENDS)('new passwords on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend, { WEB_ORIGIN: 'http://web.example' });
  beforeAll(() => ({ t } = fixture));

  const login = (role: Role, email: string, password: string) =>
    t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password } });
  const signupWith = (role: Role, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/${role}/signup`,
      payload: { name: 'Ann Lee', email: uniqueEmail(role), ...signupExtras(role), ...body },
    });
  // A password change asks for the current password (re-authentication); the fixtures sign up with PASSWORD.
  const patchMe = (role: Role, token: string, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'PATCH',
      url: `/${role}/me`,
      headers: bearer(token),
      payload: { currentPassword: PASSWORD, ...payload },
    });

  function expectRefused(res: LightMyRequestResponse, password: string) {
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: string }).error).toMatch(REFUSAL);
    // The refusal quotes the library's advice, never the password.
    expect(res.body).not.toContain(password);
  }

  async function resetLinkFor(role: Role, email: string) {
    const before = (await readOutbox(t)).length;
    await t.app.inject({ method: 'POST', url: `/${role}/forgot-password`, payload: { email } });
    const mails = await readOutbox(t);
    expect(mails).toHaveLength(before + 1);
    const m = /reset-password\/([0-9a-f-]{36})\/([A-Za-z0-9_-]{43})$/m.exec(mails[mails.length - 1].text);
    if (!m) throw new Error('no reset link');
    return (password: string) =>
      t.app.inject({ method: 'POST', url: `/${role}/reset-password/${m[1]}/${m[2]}`, payload: { password } });
  }

  describe.each(ROLES)('%s', (role) => {
    it.each(COMMON)('signup refuses %s with feedback and writes nothing', async (password) => {
      const [accounts, sessions] = [await countRows(t.db, `${role}s`), await countRows(t.db, 'sessions')];
      expectRefused(await signupWith(role, { password }), password);
      expect(await countRows(t.db, `${role}s`)).toBe(accounts);
      expect(await countRows(t.db, 'sessions')).toBe(sessions);
    });

    it('signup refuses a password built from the new account’s own name or e-mail', async () => {
      for (const password of OWN_NAME_PASSWORDS) {
        expectRefused(await signupWith(role, { ...zorblax(), password }), password);
      }
      const who = zorblax();
      expectRefused(await signupWith(role, { ...who, password: OWN_EMAIL_PASSWORD(who.email) }), OWN_EMAIL_PASSWORD(who.email));
      // The same password is fine for somebody else: it is the account's words that count.
      expect((await signupWith(role, { password: OWN_NAME_PASSWORDS[0] })).statusCode).toBe(201);
    });

    it('signup accepts a long all-lower-case passphrase (no composition rule)', async () => {
      const email = uniqueEmail(role);
      expect((await signupWith(role, { email, password: LOWERCASE_PASSPHRASE })).statusCode).toBe(201);
      expect((await login(role, email, LOWERCASE_PASSPHRASE)).statusCode).toBe(200);
    });

    it('reset refuses weak and own-name passwords, keeps the link usable, then takes a strong one', async () => {
      const who = zorblax();
      expect((await signupWith(role, { ...who, password: PASSWORD })).statusCode).toBe(201);
      const reset = await resetLinkFor(role, who.email);
      for (const password of [...COMMON, ...OWN_NAME_PASSWORDS, OWN_EMAIL_PASSWORD(who.email)]) {
        expectRefused(await reset(password), password);
      }
      expect((await login(role, who.email, PASSWORD)).statusCode).toBe(200);
      expect((await reset(STRONG)).statusCode).toBe(200);
      expect((await login(role, who.email, STRONG)).statusCode).toBe(200);
    });

    it('a password change refuses weak and own-name passwords and changes nothing', async () => {
      const who = zorblax();
      const { token } = await signup(t.app, role, who);
      const sessions = await countRows(t.db, 'sessions');
      for (const password of [...COMMON, ...OWN_NAME_PASSWORDS, OWN_EMAIL_PASSWORD(who.email)]) {
        expectRefused(await patchMe(role, token, { password }), password);
      }
      // A name given in the same request counts too, and is not saved either.
      expectRefused(await patchMe(role, token, { name: 'Quorra Vantablex', password: 'quorravantablex7' }), 'quorravantablex7');
      expect(await countRows(t.db, 'sessions')).toBe(sessions);
      expect((await login(role, who.email, PASSWORD)).statusCode).toBe(200);
      const me = await t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(token) });
      expect(JSON.stringify(me.json())).toContain('Zorblax Quintero');

      const changed = await patchMe(role, token, { password: STRONG });
      expect(changed.statusCode).toBe(200);
      expect((await login(role, who.email, STRONG)).statusCode).toBe(200);
    });
  });
});
