import { eq } from 'drizzle-orm';
import { doctors, patients } from '../../../db/schema';
import { appPerFile, BACKENDS, PASSWORD, bearer, signup, totpCode, type TestApp } from '../../../test/helpers';
import { TWO_FACTOR_ALREADY_ON } from '@careloop/shared-contracts';
import { INVALID_CODE, TWO_FACTOR_DISABLED } from './routes';

type Role = 'patient' | 'doctor';
const STEP = 30_000;
const idKey = (role: Role) => (role === 'patient' ? 'patientId' : 'doctorId');
const tableOf = (role: Role) => (role === 'patient' ? patients : doctors) as typeof doctors;

describe.each(BACKENDS)('two-factor on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t } = fixture));

  const qr = (role: Role, token: string) => t.app.inject({ method: 'GET', url: `/${role}/qrCode`, headers: bearer(token) });
  const verifyQr = (role: Role, token: string, code: string) =>
    t.app.inject({ method: 'POST', url: `/${role}/verifyqrCode`, headers: bearer(token), payload: { code } });
  const login = (role: Role, email: string) =>
    t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password: PASSWORD } });
  const verifyLogin = (role: Role, id: string, code: string) =>
    t.app.inject({ method: 'POST', url: `/${role}/verify2FA`, payload: { [idKey(role)]: id, code } });
  const me = (role: Role, token: string) => t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(token) });
  const codeAt = (secret: string, offsetMs = 0) => totpCode(secret, new Date(t.clock.now().getTime() + offsetMs));
  const row = async (role: Role, id: string) => {
    const tbl = tableOf(role);
    const [r] = await t.db.db.select().from(tbl).where(eq(tbl.id, id));
    return r;
  };

  /** Signs up and turns two-factor on; the clock then moves one step on, past the accepted code. */
  async function withTwoFactor(role: Role) {
    const account = await signup(t.app, role, {}, { twoFactor: false });
    const setup = (await qr(role, account.token)).json();
    expect((await verifyQr(role, account.token, codeAt(setup.secret))).json()).toMatchObject({ verify: true });
    const id = (await me(role, account.token)).json()[role]._id as string;
    t.clock.advance(STEP);
    return { ...account, id, secret: setup.secret as string };
  }

  describe.each(['patient', 'doctor'] as const)('%s', (role) => {
    it('sets up with a QR code, turns on with a code from the secret, and then asks for a code at login', async () => {
      const { token, email } = await signup(t.app, role, {}, { twoFactor: false });
      const res = await qr(role, token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const setup = res.json();
      expect(setup.qrCode).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
      expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/); // 20 bytes in base32
      const url = new URL(setup.otpauthUrl);
      expect(url.protocol).toBe('otpauth:');
      expect(url.host).toBe('totp');
      expect(decodeURIComponent(url.pathname)).toBe(`/CareLoop:${email}`);
      expect(url.searchParams.get('issuer')).toBe('CareLoop');
      expect(url.searchParams.get('secret')).toBe(setup.secret);
      expect(url.searchParams.get('algorithm')).toBe('SHA1');
      expect(url.searchParams.get('digits')).toBe('6');
      expect(url.searchParams.get('period')).toBe('30');
      // Not on until a code proves the app has the secret.
      expect((await me(role, token)).json()[role].twoFactorEnabled).toBe(false);
      expect((await login(role, email)).json().token).toEqual(expect.any(String));

      const ok = await verifyQr(role, token, codeAt(setup.secret));
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ verify: true });
      const profile = (await me(role, token)).json()[role];
      expect(profile.twoFactorEnabled).toBe(true);

      t.clock.advance(STEP);
      const first = await login(role, email);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ twoFactorRequired: true, [idKey(role)]: profile._id });
      const second = await verifyLogin(role, profile._id, codeAt(setup.secret));
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual({ token: expect.any(String), role });
      expect((await me(role, second.json().token)).statusCode).toBe(200);
    });

    it('stores the secrets encrypted, never in plain text', async () => {
      const { token } = await signup(t.app, role, {}, { twoFactor: false });
      const id = (await me(role, token)).json()[role]._id;
      const { secret } = (await qr(role, token)).json();
      const pending = await row(role, id);
      expect(pending.twoFactorPendingSecret).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(pending.twoFactorPendingSecret).not.toContain(secret);
      expect(pending.twoFactorSecret).toBeNull();
      await verifyQr(role, token, codeAt(secret));
      const enabled = await row(role, id);
      expect(enabled.twoFactorEnabled).toBe(true);
      expect(enabled.twoFactorPendingSecret).toBeNull();
      expect(enabled.twoFactorSecret).toMatch(/^v1\./);
      expect(enabled.twoFactorSecret).not.toContain(secret);
      expect(JSON.stringify(enabled)).not.toContain(secret);
    });

    it('answers verify false for a wrong code, and for a code with nothing to check it against', async () => {
      const { token } = await signup(t.app, role, {}, { twoFactor: false });
      expect((await verifyQr(role, token, '123456')).json()).toEqual({ verify: false }); // no secret yet
      const { secret } = (await qr(role, token)).json();
      const wrong = String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');
      const res = await verifyQr(role, token, wrong);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ verify: false });
      expect((await me(role, token)).json()[role].twoFactorEnabled).toBe(false);
    });

    it('remove2FA with a current code turns it off and deletes the secret', async () => {
      const { token, email, id, secret } = await withTwoFactor(role);
      const res = await t.app.inject({
        method: 'POST',
        url: `/${role}/remove2FA`,
        headers: bearer(token),
        payload: { code: codeAt(secret) },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: TWO_FACTOR_DISABLED });
      expect((await me(role, token)).json()[role].twoFactorEnabled).toBe(false);
      const r = await row(role, id);
      expect([r.twoFactorEnabled, r.twoFactorSecret, r.twoFactorPendingSecret]).toEqual([false, null, null]);
      expect((await login(role, email)).json()).toEqual({ twoFactorRequired: false, token: expect.any(String), role });
    });
  });

  it('accepts codes one step early or late, not two', async () => {
    const { token } = await signup(t.app, 'patient');
    const { secret } = (await qr('patient', token)).json();
    expect((await verifyQr('patient', token, codeAt(secret, 2 * STEP))).json().verify).toBe(false);
    expect((await verifyQr('patient', token, codeAt(secret, -2 * STEP))).json().verify).toBe(false);
    expect((await verifyQr('patient', token, codeAt(secret, -STEP))).json().verify).toBe(true);

    // With two-factor on (nothing pending), the enabled secret is checked the same way.
    t.clock.advance(10 * STEP);
    expect((await verifyQr('patient', token, codeAt(secret, -2 * STEP))).json().verify).toBe(false);
    expect((await verifyQr('patient', token, codeAt(secret, 2 * STEP))).json().verify).toBe(false);
    expect((await verifyQr('patient', token, codeAt(secret, -STEP))).json().verify).toBe(true);
    expect((await verifyQr('patient', token, codeAt(secret, STEP))).json().verify).toBe(true);
  });

  it('refuses a replayed code, at setup and at login', async () => {
    const { token, email } = await signup(t.app, 'doctor', {}, { twoFactor: false });
    const id = (await me('doctor', token)).json().doctor._id;
    const { secret } = (await qr('doctor', token)).json();
    const setupCode = codeAt(secret);
    expect((await verifyQr('doctor', token, setupCode)).json().verify).toBe(true);
    expect((await verifyQr('doctor', token, setupCode)).json().verify).toBe(false); // same code again
    await login('doctor', email);
    expect((await verifyLogin('doctor', id, setupCode)).statusCode).toBe(401); // the setup code at login

    t.clock.advance(STEP);
    const code = codeAt(secret);
    expect((await verifyLogin('doctor', id, code)).statusCode).toBe(200);
    await login('doctor', email);
    const replay = await verifyLogin('doctor', id, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: INVALID_CODE });
    // An older step's code is refused too, even within the ±1 window.
    expect((await verifyLogin('doctor', id, codeAt(secret, -STEP))).statusCode).toBe(401);
    t.clock.advance(STEP);
    expect((await verifyLogin('doctor', id, codeAt(secret))).statusCode).toBe(200);
  });

  it('answers 401 to verify2FA without a password step, after the 5-minute window, and after the window was used', async () => {
    const { email, id, secret } = await withTwoFactor('patient');
    const none = await verifyLogin('patient', id, codeAt(secret));
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: INVALID_CODE });

    await login('patient', email);
    t.clock.advance(5 * 60_000 + 1);
    expect((await verifyLogin('patient', id, codeAt(secret))).statusCode).toBe(401);

    await login('patient', email);
    t.clock.advance(4 * 60_000);
    expect((await verifyLogin('patient', id, codeAt(secret))).statusCode).toBe(200);
    t.clock.advance(STEP);
    expect((await verifyLogin('patient', id, codeAt(secret))).statusCode).toBe(401); // window closed by use
  });

  it('needs the wrong password to fail before any code step', async () => {
    const { email, id, secret } = await withTwoFactor('doctor');
    const bad = await t.app.inject({ method: 'POST', url: '/doctor/login', payload: { email, password: 'wrong password' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.body).not.toContain(id);
    expect((await verifyLogin('doctor', id, codeAt(secret))).statusCode).toBe(401);
  });

  it('checks the id key of verify2FA against the role', async () => {
    const { email, id, secret } = await withTwoFactor('patient');
    await login('patient', email);
    const code = codeAt(secret);
    for (const payload of [{ code }, { doctorId: id, code }, { patientId: id, doctorId: id, code }]) {
      const res = await t.app.inject({ method: 'POST', url: '/patient/verify2FA', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await verifyLogin('patient', id, 'abcdef')).statusCode).toBe(400);
    // A patient's id on the doctor route is no account there.
    expect((await verifyLogin('doctor', id, code)).statusCode).toBe(401);
    expect((await verifyLogin('patient', id, code)).statusCode).toBe(200);
  });

  it('locks code checks for 15 minutes after 5 wrong codes at login, and a success resets the count', async () => {
    const { email, id, secret } = await withTwoFactor('doctor');
    const wrong = () => String((Number(codeAt(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    await login('doctor', email);
    for (let i = 0; i < 4; i++) expect((await verifyLogin('doctor', id, wrong())).statusCode).toBe(401);
    expect((await verifyLogin('doctor', id, codeAt(secret))).statusCode).toBe(200); // resets the count

    t.clock.advance(STEP);
    await login('doctor', email);
    for (let i = 0; i < 5; i++) expect((await verifyLogin('doctor', id, wrong())).statusCode).toBe(401);
    const locked = await verifyLogin('doctor', id, codeAt(secret)); // even the right code
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: expect.stringMatching(/try again in 15 minutes/i) });

    t.clock.advance(14 * 60_000);
    await login('doctor', email);
    expect((await verifyLogin('doctor', id, codeAt(secret))).statusCode).toBe(429);
    t.clock.advance(60_000);
    await login('doctor', email);
    expect((await verifyLogin('doctor', id, codeAt(secret))).statusCode).toBe(200);
  });

  it('counts wrong codes at setup too (shared with login), then lifts after 15 minutes', async () => {
    const { token } = await signup(t.app, 'patient');
    const { secret } = (await qr('patient', token)).json();
    const wrong = String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) expect((await verifyQr('patient', token, wrong)).json()).toEqual({ verify: false });
    const locked = await verifyQr('patient', token, codeAt(secret));
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: expect.any(String) });
    t.clock.advance(15 * 60_000);
    expect((await verifyQr('patient', token, codeAt(secret))).json()).toMatchObject({ verify: true });
  });

  it('rate-limits parallel guesses too', async () => {
    const { email, id, secret } = await withTwoFactor('patient');
    await login('patient', email);
    const wrong = String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');
    const codes = await Promise.all(Array.from({ length: 12 }, () => verifyLogin('patient', id, wrong)));
    const statuses = codes.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('refuses a new QR code while two-factor is on (409), and the enabled secret keeps working', async () => {
    const { token, email, id, secret } = await withTwoFactor('doctor');
    const again = await qr('doctor', token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: TWO_FACTOR_ALREADY_ON });
    expect((await row('doctor', id)).twoFactorPendingSecret).toBeNull();
    await login('doctor', email);
    expect((await verifyLogin('doctor', id, codeAt(secret))).statusCode).toBe(200);
  });

  it('a later QR code replaces a pending one: only the newest secret verifies', async () => {
    const { token } = await signup(t.app, 'doctor', {}, { twoFactor: false });
    const { secret: first } = (await qr('doctor', token)).json();
    const { secret: second } = (await qr('doctor', token)).json();
    expect(second).not.toBe(first);
    expect((await verifyQr('doctor', token, codeAt(first))).json().verify).toBe(false);
    expect((await verifyQr('doctor', token, codeAt(second))).json().verify).toBe(true);
  });

  it('guards the set-up routes: own role only, a session required', async () => {
    const { token } = await signup(t.app, 'doctor', {}, { twoFactor: false });
    for (const req of [
      { method: 'GET' as const, url: '/patient/qrCode' },
      { method: 'POST' as const, url: '/patient/verifyqrCode', payload: { code: '123456' } },
      { method: 'POST' as const, url: '/patient/remove2FA', payload: { currentPassword: PASSWORD } },
    ]) {
      expect((await t.app.inject({ ...req, headers: bearer(token) })).statusCode).toBe(403);
      expect((await t.app.inject(req)).statusCode).toBe(401);
    }
  });
});
