import { eq } from 'drizzle-orm';
import { sessions } from '../../../db/schema';
import { hashToken } from '../../../lib/tokens';
import {
  appPerFile,
  BACKENDS,
  PASSWORD,
  bearer,
  countRows,
  createTestApp,
  logIn,
  signup,
  uniqueEmail,
  type TestApp,
  signupExtras,
} from '../../../test/helpers';
import { BAD_CREDENTIALS, DUPLICATE_EMAIL } from './messages';

describe.each(BACKENDS)('auth on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t } = fixture));

  const login = (role: string, email: string, password: string) =>
    t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password } });

  describe('signup', () => {
    it('creates a patient with defaults, returns a token, never the password', async () => {
      const email = uniqueEmail('Pat');
      const res = await t.app.inject({
        method: 'POST',
        url: '/patient/signup',
        payload: { name: 'Pat Doe', email: `  ${email.toUpperCase()} `, password: PASSWORD },
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({ token: expect.any(String), role: 'patient' });
      expect(res.body).not.toContain(PASSWORD);

      const me = await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(body.token) });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual({
        patient: {
          _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: 'Pat Doe',
          email: email.toLowerCase(),
          DOB: null,
          gender: 'Prefer not to say',
          maritalStatus: 'Unmarried',
          occupation: '',
          address: { street: '', city: '', state: '', pinCode: '' },
          profileComplete: true,
          twoFactorEnabled: false,
          pendingEmail: null,
          // Not verified yet: the link is in the mail (a raw signup follows none).
          emailVerified: false,
          assignedDoctors: [],
        },
        profileUrl: null,
      });
      expect(me.body).not.toMatch(/password|scrypt/i);
    });

    it('creates a doctor with defaults', async () => {
      // A new account's defaults: two-factor off (the helper would otherwise enrol a doctor).
      const { token } = await signup(t.app, 'doctor', { specialization: ['Cardiology'] }, { twoFactor: false });
      const me = await t.app.inject({ method: 'GET', url: '/doctor/me', headers: bearer(token) });
      expect(me.statusCode).toBe(200);
      expect(me.json().doctor).toMatchObject({
        yearsOfExperience: 1,
        specialization: ['Cardiology'],
        qualifications: [],
        gender: 'Prefer not to say',
        assignedPatients: [],
        twoFactorEnabled: false,
        emailVerified: true, // signup() follows the mailed link
      });
      expect(me.body).not.toMatch(/password|scrypt/i);
    });

    it('stores the token only as its SHA-256 hash', async () => {
      const { token } = await signup(t.app, 'patient');
      const byHash = await t.db.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(token)));
      expect(byHash).toHaveLength(1);
      const byPlain = await t.db.db.select().from(sessions).where(eq(sessions.tokenHash, token));
      expect(byPlain).toHaveLength(0);
    });

    it.each(['patient', 'doctor'])('rejects a duplicate %s e-mail (any case) with 409', async (role) => {
      const { email } = await signup(t.app, role as 'patient');
      const before = await countRows(t.db, `${role}s` as 'patients');
      const res = await t.app.inject({
        method: 'POST',
        url: `/${role}/signup`,
        payload: { name: 'Again', email: email.toUpperCase(), password: PASSWORD, ...signupExtras(role as 'patient') },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: DUPLICATE_EMAIL });
      expect(await countRows(t.db, `${role}s` as 'patients')).toBe(before);
    });

    it('allows the same e-mail once per role', async () => {
      const email = uniqueEmail('both');
      await signup(t.app, 'patient', { email });
      await expect(signup(t.app, 'doctor', { email })).resolves.toMatchObject({ email });
    });

    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const bad: Array<[string, 'patient' | 'doctor', Record<string, unknown>, RegExp]> = [
      ['an unknown key', 'patient', { isAdmin: true }, /isAdmin/],
      ['a wrong type', 'patient', { name: 42 }, /^name: /],
      ['a bad e-mail', 'patient', { email: 'not-an-email' }, /^email: Invalid e-mail/],
      ['a short password', 'patient', { password: 'short' }, /^password: .*at least 8/],
      ['a common password', 'doctor', { password: 'Password123' }, /^password: This password is too easy to guess\. /],
      ['a 129-character password', 'doctor', { password: 'x'.repeat(129) }, /^password: .*at most 128/],
      ['a future date of birth', 'patient', { DOB: future }, /^DOB: .*future/],
      ['an impossible date', 'patient', { DOB: '2001-02-30' }, /^DOB: /],
      ['yearsOfExperience 0', 'doctor', { yearsOfExperience: 0 }, /^yearsOfExperience: .*at least 1/],
      ['a nested unknown key', 'patient', { address: { city: 'X', planet: 'Mars' } }, /planet/],
      ['a bad gender', 'doctor', { gender: 'Robot' }, /^gender: /],
    ];
    it.each(bad)('rejects %s with 400 and writes nothing', async (_label, role, patch, message) => {
      const table = `${role}s` as 'patients';
      const [accounts, sess] = [await countRows(t.db, table), await countRows(t.db, 'sessions')];
      const res = await t.app.inject({
        method: 'POST',
        url: `/${role}/signup`,
        payload: { name: 'Bad Input', email: uniqueEmail(), password: PASSWORD, ...signupExtras(role), ...patch },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(message);
      expect(await countRows(t.db, table)).toBe(accounts);
      expect(await countRows(t.db, 'sessions')).toBe(sess);
    });

    it('rejects a missing body with 400', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/patient/signup' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    });
  });

  describe('login', () => {
    it('returns a working token for the right password', async () => {
      // Two-factor off: the password alone answers the token.
      const { email } = await signup(t.app, 'doctor', {}, { twoFactor: false });
      const res = await login('doctor', email.toUpperCase(), PASSWORD);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({ twoFactorRequired: false, token: expect.any(String), role: 'doctor' });
      const me = await t.app.inject({ method: 'GET', url: '/doctor/me', headers: bearer(body.token) });
      expect(me.statusCode).toBe(200);
      expect(me.json().doctor.email).toBe(email);
    });

    it('answers a wrong password and an unknown e-mail alike with 401', async () => {
      const { email } = await signup(t.app, 'patient');
      const wrong = await login('patient', email, 'not the password');
      const unknown = await login('patient', uniqueEmail('nobody'), PASSWORD);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ error: BAD_CREDENTIALS });
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('does not log a patient in on the doctor login', async () => {
      const { email } = await signup(t.app, 'patient');
      expect((await login('doctor', email, PASSWORD)).statusCode).toBe(401);
    });

    it('validates the body', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/patient/login', payload: { email: 'x@example.com' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/^password: /);
    });

    it('locks the (account, address) pair for 15 minutes after 5 consecutive failures, then lets it in', async () => {
      const { email } = await signup(t.app, 'patient');
      for (let i = 0; i < 5; i++) expect((await login('patient', email, 'wrong password')).statusCode).toBe(401);
      const locked = await login('patient', email, PASSWORD); // even the right password
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ error: expect.stringMatching(/try again/i) });

      t.clock.advance(14 * 60_000);
      expect((await login('patient', email, PASSWORD)).statusCode).toBe(429);
      t.clock.advance(60_000 + 1);
      const ok = await login('patient', email, PASSWORD);
      expect(ok.statusCode).toBe(200);
    });

    it('resets the failure count on success', async () => {
      const { email } = await signup(t.app, 'doctor');
      for (let i = 0; i < 4; i++) await login('doctor', email, 'wrong password');
      expect((await login('doctor', email, PASSWORD)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) expect((await login('doctor', email, 'wrong password')).statusCode).toBe(401);
      expect((await login('doctor', email, PASSWORD)).statusCode).toBe(200);
    });

    it('locks unknown e-mails the same way (a lockout does not reveal an account)', async () => {
      const email = uniqueEmail('ghost');
      for (let i = 0; i < 5; i++) await login('doctor', email, 'wrong password');
      expect((await login('doctor', email, 'wrong password')).statusCode).toBe(429);
    });

    it('limits login attempts per IP', async () => {
      const limited = await createTestApp(t.db, { LOGIN_RATE_LIMIT_PER_MINUTE: '3' });
      try {
        const codes: number[] = [];
        for (let i = 0; i < 4; i++) {
          const res = await limited.app.inject({
            method: 'POST',
            url: '/patient/login',
            payload: { email: uniqueEmail('ip'), password: PASSWORD },
          });
          codes.push(res.statusCode);
          if (i === 3) expect(res.json()).toEqual({ error: expect.any(String) });
        }
        expect(codes).toEqual([401, 401, 401, 429]);
      } finally {
        await limited.app.close();
      }
    });

    it('limits signups per IP too (each one runs the memory-hard hash)', async () => {
      const limited = await createTestApp(t.db, { LOGIN_RATE_LIMIT_PER_MINUTE: '2' });
      try {
        const codes: number[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await limited.app.inject({
            method: 'POST',
            url: '/doctor/signup',
            payload: { name: 'Dr. Rate', email: uniqueEmail('signup-ip'), password: PASSWORD, ...signupExtras('doctor') },
          });
          codes.push(res.statusCode);
        }
        expect(codes).toEqual([201, 201, 429]);
      } finally {
        await limited.app.close();
      }
    });
  });

  describe('sessions and the guard', () => {
    it('logout revokes the session server-side', async () => {
      const { token } = await signup(t.app, 'patient');
      const out = await t.app.inject({ method: 'POST', url: '/patient/logout', headers: bearer(token) });
      expect(out.statusCode).toBe(204);
      expect(out.body).toBe('');
      const me = await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(token) });
      expect(me.statusCode).toBe(401);
      expect(me.json()).toEqual({ error: 'Unauthorized' });
      const [row] = await t.db.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(token)));
      expect(row.revokedAt).toBeInstanceOf(Date);
    });

    it('logout revokes only that session', async () => {
      const { email, token } = await signup(t.app, 'doctor');
      const other = await logIn(t.app, 'doctor', email);
      await t.app.inject({ method: 'POST', url: '/doctor/logout', headers: bearer(token) });
      expect((await t.app.inject({ method: 'GET', url: '/doctor/me', headers: bearer(other) })).statusCode).toBe(200);
    });

    it('expires a busy session after SESSION_MAX_HOURS (12 by default)', async () => {
      const { token } = await signup(t.app, 'patient');
      const me = () => t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(token) });
      // A request every 10 minutes keeps it from going idle, not past its absolute limit.
      for (let minutes = 10; minutes < 12 * 60; minutes += 10) {
        t.clock.advance(10 * 60_000);
        expect((await me()).statusCode).toBe(200);
      }
      t.clock.advance(10 * 60_000 - 1000);
      expect((await me()).statusCode).toBe(200);
      t.clock.advance(2000);
      const res = await me();
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Session expired' });
    });

    it('answers 403 for a token of the other role', async () => {
      const { token } = await signup(t.app, 'doctor');
      for (const req of [
        { method: 'GET' as const, url: '/patient/me' },
        { method: 'PATCH' as const, url: '/patient/me', payload: { name: 'x' } },
        { method: 'POST' as const, url: '/patient/logout' },
      ]) {
        const res = await t.app.inject({ ...req, headers: bearer(token) });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'Forbidden' });
      }
    });

    it.each([
      ['no header', undefined],
      ['a malformed header', 'Token abc'],
      ['a bearer with junk', 'Bearer not a token!'],
      ['an unknown token', 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ])('answers 401 for %s', async (_label, authorization) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/doctor/me',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
    });
  });
});
