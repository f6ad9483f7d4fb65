import { eq } from 'drizzle-orm';
import { accountTokens } from '../../../db/schema';
import { hashToken } from '../../../lib/tokens';
import {
  appPerFile,
  BACKENDS,
  PASSWORD,
  bearer,
  countRows,
  createTestApp,
  createTestDb,
  readOutbox,
  signup,
  verificationTokenFor,
  totpCode,
  uniqueEmail,
  type TestApp,
  type TestDb,
  signupExtras,
} from '../../../test/helpers';
import { FORGOT_PASSWORD_MESSAGE, RESET_DONE_MESSAGE, RESET_INVALID, RESET_MAIL_SUBJECT } from './routes';

type Role = 'patient' | 'doctor';
const NEW_PASSWORD = 'a fresh and long passphrase';
const LINK = /^(http:\/\/web\.example)\/(patient|doctor)\/reset-password\/([0-9a-f-]{36})\/([A-Za-z0-9_-]{43})$/m;

describe.each(BACKENDS)('forgot and reset password on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend, { WEB_ORIGIN: 'http://web.example' });
  beforeAll(() => ({ t } = fixture));

  const forgot = (role: Role, email: string) =>
    t.app.inject({ method: 'POST', url: `/${role}/forgot-password`, payload: { email } });
  const reset = (role: Role, id: string, token: string, password = NEW_PASSWORD) =>
    t.app.inject({ method: 'POST', url: `/${role}/reset-password/${id}/${token}`, payload: { password } });
  const login = (role: Role, email: string, password: string) =>
    t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password } });

  /** Asks for a link and reads it out of the newest .eml in the outbox. */
  async function resetLinkFor(role: Role, email: string) {
    const before = (await readOutbox(t)).length;
    expect((await forgot(role, email)).statusCode).toBe(200);
    const mails = await readOutbox(t);
    expect(mails).toHaveLength(before + 1);
    const mail = mails[mails.length - 1];
    const m = LINK.exec(mail.text);
    if (!m) throw new Error(`no reset link in:\n${mail.text}`);
    return { mail, link: m[0], role: m[2], id: m[3], token: m[4] };
  }

  describe.each(['patient', 'doctor'] as const)('%s', (role) => {
    it('answers known and unknown e-mails alike, and mails only the known one', async () => {
      const { email } = await signup(t.app, role);
      const before = (await readOutbox(t)).length;
      const unknown = await forgot(role, uniqueEmail('nobody'));
      const known = await forgot(role, email.toUpperCase());
      expect(unknown.statusCode).toBe(200);
      expect(known.statusCode).toBe(200);
      expect(unknown.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
      expect(known.body).toBe(unknown.body);
      expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());

      const mails = (await readOutbox(t)).slice(before);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail.file).toMatch(/^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{12}\.eml$/);
      expect(mail.headers.to).toBe(email);
      expect(mail.headers.from).toBe('CareLoop <no-reply@careloop.example>');
      expect(mail.headers.subject).toBe(RESET_MAIL_SUBJECT);
      expect(mail.headers['content-type']).toMatch(/^text\/plain/);
      expect(mail.text).toMatch(/30 minutes/);
      const link = LINK.exec(mail.text);
      expect(link?.[2]).toBe(role);
    });

    it('resets the password once with the link', async () => {
      const { email } = await signup(t.app, role);
      const { id, token } = await resetLinkFor(role, email);
      const res = await reset(role, id, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: RESET_DONE_MESSAGE });
      expect((await login(role, email, NEW_PASSWORD)).statusCode).toBe(200);
      expect((await login(role, email, PASSWORD)).statusCode).toBe(401);

      const again = await reset(role, id, token, 'yet another passphrase');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ error: RESET_INVALID });
      expect((await login(role, email, NEW_PASSWORD)).statusCode).toBe(200);
    });
  });

  it('expires links after 30 minutes', async () => {
    const { email } = await signup(t.app, 'patient');
    const early = await resetLinkFor('patient', email);
    t.clock.advance(30 * 60_000 - 1000);
    expect((await reset('patient', early.id, early.token)).statusCode).toBe(200);

    const late = await resetLinkFor('patient', email);
    t.clock.advance(30 * 60_000);
    const res = await reset('patient', late.id, late.token, 'another good passphrase');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: RESET_INVALID });
  });

  it('stores the token only as its SHA-256 hash', async () => {
    const { email } = await signup(t.app, 'doctor');
    const { id, token } = await resetLinkFor('doctor', email);
    const byHash = await t.db.db
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    expect(byHash).toHaveLength(1);
    expect(byHash[0]).toMatchObject({ purpose: 'password-reset', role: 'doctor', accountId: id, usedAt: null });
    // 30 minutes from now by the DATABASE's clock (lib/db-clock.ts; the test database runs on this host), whatever the app's clock says
    expect(Math.abs(byHash[0].expiresAt.getTime() - (Date.now() + 30 * 60_000))).toBeLessThan(60_000);
    expect(await t.db.db.select().from(accountTokens).where(eq(accountTokens.tokenHash, token))).toHaveLength(0);
  });

  it('signs out every session, kills the other links and lifts the login lockout', async () => {
    const { email, token: session } = await signup(t.app, 'doctor');
    const other = (await login('doctor', email, PASSWORD)).json().token;
    const first = await resetLinkFor('doctor', email);
    t.clock.advance(61_000); // one reset mail a minute
    const second = await resetLinkFor('doctor', email);
    for (let i = 0; i < 5; i++) await login('doctor', email, 'wrong password');
    expect((await login('doctor', email, PASSWORD)).statusCode).toBe(429);

    expect((await reset('doctor', second.id, second.token)).statusCode).toBe(200);
    for (const s of [session, other]) {
      expect((await t.app.inject({ method: 'GET', url: '/doctor/me', headers: bearer(s) })).statusCode).toBe(401);
    }
    expect((await reset('doctor', first.id, first.token, 'one more passphrase')).json()).toEqual({ error: RESET_INVALID });
    expect((await login('doctor', email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('keeps two-factor on: the code is still required after a reset', async () => {
    const { email, token } = await signup(t.app, 'patient');
    const { secret } = (await t.app.inject({ method: 'GET', url: '/patient/qrCode', headers: bearer(token) })).json();
    const code = totpCode(secret, t.clock.now());
    await t.app.inject({ method: 'POST', url: '/patient/verifyqrCode', headers: bearer(token), payload: { code } });
    const { id, token: resetToken } = await resetLinkFor('patient', email);
    expect((await reset('patient', id, resetToken)).statusCode).toBe(200);
    const res = await login('patient', email, NEW_PASSWORD);
    expect(res.json()).toEqual({ twoFactorRequired: true, patientId: id });
  });

  it('refuses a link with another id, the other role, or a made-up token', async () => {
    const { email } = await signup(t.app, 'patient');
    const victim = await resetLinkFor('patient', email);
    const other = await signup(t.app, 'patient');
    const otherId = (await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(other.token) })).json().patient._id;
    for (const res of [
      await reset('patient', otherId, victim.token),
      await reset('doctor', victim.id, victim.token),
      await reset('patient', victim.id, 'A'.repeat(43)),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: RESET_INVALID });
    }
    const malformed = await reset('patient', 'not-a-uuid', victim.token);
    expect(malformed.statusCode).toBe(400);
    // None of that spent the link.
    expect((await reset('patient', victim.id, victim.token)).statusCode).toBe(200);
  });

  it('validates the new password with the signup policy, keeping the link usable', async () => {
    // 128 characters, all lower-case words: length is the rule, and the words are not guessable.
    const longest =
      'seven quiet otters braid copper lanterns beneath a hazel moon while finches argue about marmalade in the attic at dusk ok'.padEnd(
        128,
        '!',
      );
    const { email } = await signup(t.app, 'doctor');
    const { id, token } = await resetLinkFor('doctor', email);
    for (const [password, message] of [
      ['seven77', /at least 8/],
      ['x'.repeat(129), /at most 128/],
      ['Password123', /^password: This password is too easy to guess\. /],
    ] as const) {
      const res = await reset('doctor', id, token, password);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect(longest).toHaveLength(128);
    expect((await reset('doctor', id, token, longest)).statusCode).toBe(200);
    expect((await login('doctor', email, longest)).statusCode).toBe(200);
  });

  // Signup mails its verification link too: only the reset mails count here.
  const resetMails = async () => (await readOutbox(t)).filter((m) => m.headers.subject === RESET_MAIL_SUBJECT);

  it('mails an account at most once a minute and 5 times an hour, with the same answer every time', async () => {
    const { email } = await signup(t.app, 'patient');
    const { email: neighbour } = await signup(t.app, 'patient');
    const mailsTo = async (to: string) => (await resetMails()).filter((m) => m.headers.to === to).length;
    const ask = async (to: string) => {
      const res = await forgot('patient', to);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    };
    for (let i = 0; i < 20; i++) await ask(email); // "20 reset mails to one address in a row"
    expect(await mailsTo(email)).toBe(1);
    for (let minute = 1; minute < 60; minute++) {
      t.clock.advance(60_000);
      await ask(email);
    }
    expect(await mailsTo(email)).toBe(5);
    // Someone else's limit is their own.
    await ask(neighbour);
    expect(await mailsTo(neighbour)).toBe(1);
    // An hour after the first, a place is free again; the links already sent still work.
    t.clock.advance(60_000);
    await ask(email);
    expect(await mailsTo(email)).toBe(6);
    const links = (await resetMails()).filter((m) => m.headers.to === email).map((m) => LINK.exec(m.text));
    const last = links[links.length - 1]!;
    expect((await reset('patient', last[3], last[4])).statusCode).toBe(200);
  });

  it('counts the reset mails per role: the doctor account of the same e-mail has its own', async () => {
    const email = uniqueEmail('both');
    await signup(t.app, 'patient', { email });
    await signup(t.app, 'doctor', { email });
    await forgot('patient', email);
    await forgot('doctor', email);
    const subjects = (await resetMails()).filter((m) => m.headers.to === email).map((m) => LINK.exec(m.text)![2]);
    expect(subjects.sort()).toEqual(['doctor', 'patient']);
  });

  it('validates the forgot-password body', async () => {
    const res = await forgot('patient', 'not an e-mail');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.stringMatching(/^email: /) });
  });

  it('limits forgot-password per IP', async () => {
    const limited = await createTestApp(t.db, { LOGIN_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        codes.push(
          (await limited.app.inject({ method: 'POST', url: '/patient/forgot-password', payload: { email: uniqueEmail() } }))
            .statusCode,
        );
      }
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await limited.app.close();
    }
  });

  it('never logs the reset token or the link', async () => {
    const lines: string[] = [];
    const logged = await createTestApp(t.db, { LOG_LEVEL: 'info', WEB_ORIGIN: 'http://web.example' }, undefined, (l) =>
      lines.push(l),
    );
    try {
      const { email } = await signup(logged.app, 'patient', {}, { verified: false });
      // The signup's verification link is posted too: its token must not reach the log either.
      const verifyToken = await verificationTokenFor(logged.app, 'patient', email);
      expect(
        (
          await logged.app.inject({
            method: 'POST',
            url: `/patient/verify-email/${verifyToken}`,
            payload: { password: PASSWORD },
          })
        ).statusCode,
      ).toBe(200);
      await logged.app.inject({ method: 'POST', url: '/patient/forgot-password', payload: { email } });
      const mail = (await readOutbox(logged)).find((m) => LINK.test(m.text))!;
      const [, , , id, token] = LINK.exec(mail.text)!;
      await logged.app.inject({
        method: 'POST',
        url: `/patient/reset-password/${id}/${token}`,
        payload: { password: NEW_PASSWORD },
      });
      const log = lines.join('\n');
      expect(log).toContain('/patient/reset-password/');
      expect(log).not.toContain(token);
      expect(log).toContain('/patient/verify-email/[redacted]');
      expect(log).not.toContain(verifyToken);
      expect(log).not.toContain(NEW_PASSWORD);
    } finally {
      await logged.app.close();
    }
    expect(await countRows(t.db, 'account_tokens')).toBeGreaterThan(0);
  });
});

describe.each(BACKENDS)('password policy on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter);
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  // Words, not repeated letters: zxcvbn refuses 'aaaa…' at any length.
  const phrase = 'seven quiet otters braid copper lanterns beneath a hazel moon while finches argue about marmalade in the attic';
  const long80 = phrase.slice(0, 80);
  // The 75th character changed: a hash that truncated (bcrypt stops at 72 bytes) would still match.
  const long80changed = `${long80.slice(0, 74)}X${long80.slice(75)}`;
  const p64 = phrase.slice(0, 64);
  const p128 = phrase.padEnd(128, '!');
  const loginCode = async (role: Role, email: string, password: string) =>
    (await t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password } })).statusCode;

  async function resetTo(role: Role, email: string, password: string) {
    await t.app.inject({ method: 'POST', url: `/${role}/forgot-password`, payload: { email } });
    // this account's reset mail, whatever else the outbox holds (its verification mail may sort after it)
    const link = /reset-password\/([0-9a-f-]{36})\/([\w-]{43})/;
    const mails = (await readOutbox(t)).filter((mail) => mail.headers.to?.includes(email) && link.test(mail.text));
    expect(mails).toHaveLength(1);
    const m = link.exec(mails[0].text)!;
    return t.app.inject({ method: 'POST', url: `/${role}/reset-password/${m[1]}/${m[2]}`, payload: { password } });
  }

  /** Sets the password through one of the three doors; answers the HTTP status. */
  const doors: Record<string, (role: Role, password: string) => Promise<{ status: number; email: string }>> = {
    signup: async (role, password) => {
      const email = uniqueEmail('policy');
      const res = await t.app.inject({
        method: 'POST',
        url: `/${role}/signup`,
        payload: { name: 'Policy', email, password, ...signupExtras(role) },
      });
      return { status: res.statusCode === 201 ? 200 : res.statusCode, email };
    },
    'PATCH me': async (role, password) => {
      const { email, token } = await signup(t.app, role);
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/${role}/me`,
        headers: bearer(token),
        payload: { password, currentPassword: PASSWORD },
      });
      return { status: res.statusCode, email };
    },
    reset: async (role, password) => {
      const { email } = await signup(t.app, role);
      return { status: (await resetTo(role, email, password)).statusCode, email };
    },
  };

  describe.each(Object.keys(doors))('at %s', (door) => {
    const set = doors[door];
    it('uses all 80 characters: the 75th changed does not log in', async () => {
      const { status, email } = await set('patient', long80);
      expect(status).toBe(200);
      expect(await loginCode('patient', email, long80changed)).toBe(401);
      expect(await loginCode('patient', email, long80)).toBe(200);
    });
    it('refuses 7 characters and a common password, accepts 64 and 128', async () => {
      expect((await set('doctor', 'abcdefg')).status).toBe(400);
      expect((await set('doctor', 'iloveyou1')).status).toBe(400);
      for (const password of [p64, p128]) {
        const { status, email } = await set('doctor', password);
        expect(status).toBe(200);
        expect(await loginCode('doctor', email, password)).toBe(200);
      }
    });
  });
});
