import { eq } from 'drizzle-orm';
import { auditLog, doctors, oidcLogins, patients } from '../../../db/schema';
import { hashToken } from '../../../lib/tokens';
import {
  BACKENDS,
  PASSWORD,
  bearer,
  countRows,
  createTestApp,
  readOutbox,
  createTestDb,
  signup,
  totpCode,
  uniqueEmail,
  type TestApp,
  type TestDb,
} from '../../../test/helpers';
import { startOAuthMock, type OAuthMock } from '../../../test/oauth-mock';
import { plantedLeft, plantInPatient, WIPED } from '../../../test/takeover';
import { consumeEmailToken, issueEmailToken } from '../email-verification/tokens';
import { STATE_COOKIE } from './routes';

const WEB = 'http://web.example';
const API = 'http://api.example';
const CLIENT_ID = 'careloop-test-client';

describe.each(BACKENDS)('Google sign-in on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  let mock: OAuthMock;
  /** The claims the mock puts into the next ID token. */
  const setClaims = (claims: Record<string, unknown>) => mock.setClaims(claims);

  beforeAll(async () => {
    mock = await startOAuthMock();
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter, {
      GOOGLE_ISSUER_URL: mock.issuer,
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: 'test-secret',
      WEB_ORIGIN: WEB,
      API_PUBLIC_URL: API,
    });
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
    await mock?.stop();
  });

  /** Start → the mock's authorize endpoint (which redirects straight back) → our callback. */
  async function signIn(app = t.app, opts: { cookie?: boolean } = {}) {
    const start = await app.inject({ method: 'GET', url: '/patient/auth/google' });
    expect(start.statusCode).toBe(302);
    const authorize = new URL(start.headers.location as string);
    const setCookie = String(start.headers['set-cookie']);
    const back = await fetch(authorize, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const callback = new URL(back.headers.get('location')!);
    expect(callback.origin + callback.pathname).toBe(`${API}/patient/auth/google/callback`);
    const cookie = opts.cookie === false ? undefined : setCookie.split(';')[0];
    const done = await app.inject({
      method: 'GET',
      url: callback.pathname + callback.search,
      headers: cookie ? { cookie } : {},
    });
    expect(done.statusCode).toBe(302);
    return { start, authorize, setCookie, callback, cookie, done, location: new URL(done.headers.location as string) };
  }

  const exchange = (code: string) => t.app.inject({ method: 'POST', url: '/patient/auth/exchange', payload: { code } });
  /** What the web app does with the redirect: exchanges the one-time code in ?token= for a session. */
  async function sessionFrom(location: URL): Promise<string> {
    const res = await exchange(location.searchParams.get('token')!);
    expect(res.statusCode).toBe(200);
    expect(res.json().role).toBe('patient');
    return res.json().token as string;
  }
  const patientRow = async (email: string) => (await t.db.db.select().from(patients).where(eq(patients.email, email)))[0];
  /** As if the patient had used their verification link (that flow is not this file's). */
  const markVerified = (email: string) =>
    t.db.db.update(patients).set({ emailVerifiedAt: t.clock.now() }).where(eq(patients.email, email));
  const login = (email: string, password = PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/patient/login', payload: { email, password } });
  const securityOf = async (id: string) =>
    (await t.db.db.select().from(auditLog).where(eq(auditLog.actorId, id)).orderBy(auditLog.id)).map((r) => r.action);

  it('redirects to the issuer with PKCE (S256), state and nonce, and remembers them in the database', async () => {
    const before = await countRows(t.db, 'oidc_logins');
    const start = await t.app.inject({ method: 'GET', url: '/patient/auth/google' });
    expect(start.statusCode).toBe(302);
    const url = new URL(start.headers.location as string);
    expect(url.origin).toBe(new URL(mock.issuer).origin);
    expect(url.pathname).toBe('/authorize');
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(CLIENT_ID);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('redirect_uri')).toBe(`${API}/patient/auth/google/callback`);
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(String(start.headers['set-cookie'])).toMatch(
      new RegExp(`^${STATE_COOKIE}=${q.get('state')}; Path=/patient/auth/google; Max-Age=600; HttpOnly; SameSite=Lax$`),
    );
    expect(await countRows(t.db, 'oidc_logins')).toBe(before + 1);
  });

  it('creates an incomplete patient for a new verified e-mail; complete-profile finishes it', async () => {
    const email = uniqueEmail('google');
    await setClaims({ email: email.toUpperCase(), email_verified: true, name: 'Gina Google' });
    const { location } = await signIn();
    expect(location.origin + location.pathname).toBe(`${WEB}/login/patient`);
    expect(location.searchParams.get('role')).toBe('patient');
    expect(location.searchParams.get('token')).toMatch(/^[\w-]{43}$/);
    const token = await sessionFrom(location);

    const me = (await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(token) })).json().patient;
    expect(me).toMatchObject({
      name: 'Gina Google',
      email,
      profileComplete: false,
      twoFactorEnabled: false,
      DOB: null,
      assignedDoctors: [],
    });
    // No usable password: the random one is hashed like any other. Google proved the e-mail.
    const row = await patientRow(email);
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.emailVerifiedAt).toEqual(t.clock.now());

    const profile = {
      DOB: '1988-02-03',
      gender: 'Female',
      maritalStatus: 'Married',
      occupation: 'Nurse',
      address: { street: '2 Side St', city: 'Leeds', state: 'WY', pinCode: 'LS1' },
    };
    const done = await t.app.inject({
      method: 'POST',
      url: '/patient/complete-profile',
      headers: bearer(token),
      payload: profile,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ token: expect.any(String), role: 'patient' });
    const fresh = done.json().token;
    expect((await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(token) })).statusCode).toBe(401);
    const after = (await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(fresh) })).json().patient;
    expect(after).toMatchObject({ ...profile, profileComplete: true, name: 'Gina Google' });

    // Signing in again finds the same patient.
    const again = await signIn();
    const token2 = await sessionFrom(again.location);
    const me2 = (await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(token2) })).json().patient;
    expect(me2._id).toBe(me._id);
    expect(me2.profileComplete).toBe(true);
  });

  it("names the account after the e-mail's local part when the name claim is missing", async () => {
    const email = uniqueEmail('nameless');
    await setClaims({ email, email_verified: true, name: null });
    const { location } = await signIn();
    const me = (await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(await sessionFrom(location)) })).json();
    expect(me.patient.name).toBe(email.split('@')[0]);
  });

  it('signs an existing VERIFIED password patient in as themselves: profile, password and sessions kept', async () => {
    const { email, token: own } = await signup(t.app, 'patient');
    await markVerified(email);
    const before = await countRows(t.db, 'patients');
    await setClaims({ email, email_verified: true, name: 'Other Name' });
    const { location } = await signIn();
    const me = (await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(await sessionFrom(location)) })).json();
    expect(me.patient).toMatchObject({ email, name: 'Test patient', profileComplete: true });
    expect(await countRows(t.db, 'patients')).toBe(before);
    // The password and the session the patient already had still work.
    expect((await login(email)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(own) })).statusCode).toBe(200);
  });

  it('puts no session token in the redirect: ?token= is a one-time code that is no bearer', async () => {
    await setClaims({ email: uniqueEmail('nobearer'), email_verified: true });
    const sessions = await countRows(t.db, 'sessions');
    const { location } = await signIn();
    const code = location.searchParams.get('token')!;
    expect(await countRows(t.db, 'sessions')).toBe(sessions); // the callback made no session
    expect((await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(code) })).statusCode).toBe(401);
    const token = await sessionFrom(location);
    expect(token).not.toBe(code);
    expect((await exchange(code)).statusCode).toBe(400); // once only
  });

  it('records the sign-in when the code is exchanged, not before', async () => {
    const email = uniqueEmail('logged');
    await setClaims({ email, email_verified: true });
    const { location } = await signIn();
    const { id } = await patientRow(email);
    expect(await securityOf(id)).toEqual([]);
    await sessionFrom(location);
    expect(await securityOf(id)).toEqual(['sign-in']);
  });

  it('takes over an UNVERIFIED password account (pre-hijack): the squatter loses password and sessions', async () => {
    // The attacker signs up first with the victim's address and keeps a session.
    const victim = uniqueEmail('victim');
    const squatter = await signup(t.app, 'patient', { email: victim, name: 'Squatter' }, { verified: false });
    const { id } = await patientRow(victim);
    expect((await login(victim)).statusCode).toBe(200);
    const pendingLink = await issueEmailToken(t.db.db, {
      role: 'patient',
      accountId: id,
      email: victim,
      now: t.clock.now(),
    });
    // …and begins a two-factor setup with their own authenticator, without finishing it.
    expect((await t.app.inject({ method: 'GET', url: '/patient/qrCode', headers: bearer(squatter.token) })).statusCode).toBe(200);
    const before = await patientRow(victim);
    expect(before.emailVerifiedAt).toBeNull();
    expect(before.twoFactorPendingSecret).not.toBeNull();
    const patientsBefore = await countRows(t.db, 'patients');

    // The owner of the address signs in with Google.
    await setClaims({ email: victim, email_verified: true, name: 'Victim' });
    const { location } = await signIn();
    const owner = await sessionFrom(location);

    const after = await patientRow(victim);
    expect(after.id).toBe(id); // the same account, none created
    expect(await countRows(t.db, 'patients')).toBe(patientsBefore);
    expect(after.emailVerifiedAt).toEqual(t.clock.now());
    expect(after.passwordHash).toMatch(/^scrypt\$/);
    expect(after.passwordHash).not.toBe(before.passwordHash);
    expect(after.twoFactorPendingSecret).toBeNull();
    // The squatter's password no longer opens it, and every session they had is dead.
    expect((await login(victim)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(squatter.token) })).statusCode).toBe(401);
    // Their pending verification link is spent.
    const spent = await t.db.db.transaction((tx) => consumeEmailToken(tx, 'patient', pendingLink, t.clock.now()));
    expect(spent).toEqual({ ok: false, reason: 'invalid' });
    // The owner is in, and the log says the account was taken over.
    const me = await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(owner) });
    expect(me.json().patient._id).toBe(id);
    const log = await securityOf(id);
    expect(log).toContain('takeover');
    expect(log.indexOf('takeover')).toBeLessThan(log.lastIndexOf('sign-in'));
  });

  it('wipes what the squatter planted when the owner signs in with Google: files, allergies, profile, connections', async () => {
    const victim = uniqueEmail('victimwipe');
    const squatter = await signup(t.app, 'patient', { email: victim, name: 'Squatter' }, { verified: false });
    const { id } = await patientRow(victim);
    const doctor = await signup(t.app, 'doctor');
    const [doctorRow] = await t.db.db.select().from(doctors).where(eq(doctors.email, doctor.email));
    const planted = await plantInPatient(t, { id, token: squatter.token }, doctorRow.id);
    expect(await plantedLeft(t, id, planted)).toMatchObject({ files: 1, stored: true, allergies: 1, assignments: 1 });

    await setClaims({ email: victim, email_verified: true, name: 'Real Owner' });
    const owner = await sessionFrom((await signIn()).location);
    await t.app.backgroundTasks.idle();

    const left = await plantedLeft(t, id, planted);
    expect(left).toMatchObject({ ...WIPED, liveSessions: 1 }); // the owner's own, just made; the squatter's are gone
    expect(left.profile).toEqual({ occupation: '', city: '', dob: null, verified: true });
    expect((await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(squatter.token) })).statusCode).toBe(401);
    expect((await login(victim)).statusCode).toBe(401);
    const me = (await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(owner) })).json().patient;
    expect(me).toMatchObject({ name: 'Real Owner', profileComplete: false });
    expect(await securityOf(id)).toContain('takeover');
    const mails = (await readOutbox(t)).filter((m) => m.headers.to === victim);
    expect(mails.map((m) => m.headers.subject)).toContain('CareLoop: you took over the account of your e-mail address');
  });

  it('turns off two-factor a squatter set up on an unverified account, so it cannot lock the owner out', async () => {
    const victim = uniqueEmail('victim2fa');
    const squatter = await signup(t.app, 'patient', { email: victim }, { verified: false });
    const { secret } = (await t.app.inject({ method: 'GET', url: '/patient/qrCode', headers: bearer(squatter.token) })).json();
    await t.app.inject({
      method: 'POST',
      url: '/patient/verifyqrCode',
      headers: bearer(squatter.token),
      payload: { code: totpCode(secret, t.clock.now()) },
    });
    expect((await patientRow(victim)).twoFactorEnabled).toBe(true);

    await setClaims({ email: victim, email_verified: true });
    const { location } = await signIn();
    expect(location.searchParams.get('twoFactorRequired')).toBeNull();
    const owner = await sessionFrom(location);
    const me = (await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(owner) })).json().patient;
    expect(me.twoFactorEnabled).toBe(false);
    const row = await patientRow(victim);
    expect(row.twoFactorSecret).toBeNull();
    expect(row.twoFactorPendingSecret).toBeNull();
    expect(await securityOf(row.id)).toContain('takeover');
  });

  it.each([
    ['false', false],
    ['missing', null],
    ['the string "true"', 'true'],
  ])('never touches an unverified account when Google says email_verified is %s', async (_label, verified) => {
    const email = uniqueEmail('notproven');
    const { token } = await signup(t.app, 'patient', { email });
    const before = await patientRow(email);
    await setClaims({ email, email_verified: verified });
    const { location } = await signIn();
    expect(location.href).toBe(`${WEB}/login/patient?error=google_unverified`);
    expect(await patientRow(email)).toEqual(before);
    expect((await login(email)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('still asks for the code when a verified patient has two-factor on, and hands out no code', async () => {
    const { email, token } = await signup(t.app, 'patient');
    await markVerified(email);
    const { secret } = (await t.app.inject({ method: 'GET', url: '/patient/qrCode', headers: bearer(token) })).json();
    await t.app.inject({
      method: 'POST',
      url: '/patient/verifyqrCode',
      headers: bearer(token),
      payload: { code: totpCode(secret, t.clock.now()) },
    });
    await setClaims({ email, email_verified: true });
    const { location } = await signIn();
    expect(location.searchParams.get('token')).toBeNull();
    expect(location.searchParams.get('twoFactorRequired')).toBe('true');
    const patientId = location.searchParams.get('patientId')!;
    t.clock.advance(30_000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/patient/verify2FA',
      payload: { patientId, code: totpCode(secret, t.clock.now()) },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses an unverified e-mail, creating nobody', async () => {
    const email = uniqueEmail('unverified');
    await setClaims({ email, email_verified: false });
    const { location } = await signIn();
    expect(location.href).toBe(`${WEB}/login/patient?error=google_unverified`);
    expect(await t.db.db.select().from(patients).where(eq(patients.email, email))).toHaveLength(0);
  });

  it('fails without the state cookie, on a replayed callback, and after 10 minutes', async () => {
    await setClaims({ email: uniqueEmail('csrf'), email_verified: true });
    const noCookie = await signIn(t.app, { cookie: false });
    expect(noCookie.location.href).toBe(`${WEB}/login/patient?error=google_failed`);

    const ok = await signIn();
    expect(ok.location.searchParams.get('token')).toBeTruthy();
    await sessionFrom(ok.location);
    const replay = await t.app.inject({
      method: 'GET',
      url: ok.callback.pathname + ok.callback.search,
      headers: { cookie: ok.cookie! },
    });
    expect(replay.headers.location).toBe(`${WEB}/login/patient?error=google_failed`);

    const start = await t.app.inject({ method: 'GET', url: '/patient/auth/google' });
    const back = await fetch(new URL(start.headers.location as string), { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    t.clock.advance(10 * 60_000 + 1);
    const late = await t.app.inject({
      method: 'GET',
      url: callback.pathname + callback.search,
      headers: { cookie: String(start.headers['set-cookie']).split(';')[0] },
    });
    expect(late.headers.location).toBe(`${WEB}/login/patient?error=google_failed`);
    // Expired rows are cleared by the next start.
    await t.app.inject({ method: 'GET', url: '/patient/auth/google' });
    const rows = await t.db.db.select().from(oidcLogins);
    expect(rows.every((r) => r.expiresAt > t.clock.now())).toBe(true);
  });

  it('fails on a forged code or an error from the issuer', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/patient/auth/google' });
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const cookie = String(start.headers['set-cookie']).split(';')[0];
    const forged = await t.app.inject({
      method: 'GET',
      url: `/patient/auth/google/callback?code=forged&state=${state}`,
      headers: { cookie },
    });
    expect(forged.headers.location).toBe(`${WEB}/login/patient?error=google_failed`);
    const denied = await t.app.inject({ method: 'GET', url: '/patient/auth/google/callback?error=access_denied' });
    expect(denied.headers.location).toBe(`${WEB}/login/patient?error=google_failed`);
  });

  it('answers google_unavailable when not configured, and google_failed when the issuer is down', async () => {
    const off = await createTestApp(t.db, { WEB_ORIGIN: WEB });
    try {
      for (const url of ['/patient/auth/google', '/patient/auth/google/callback?code=x&state=y']) {
        const res = await off.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe(`${WEB}/login/patient?error=google_unavailable`);
      }
    } finally {
      await off.app.close();
    }
    const down = await createTestApp(t.db, {
      WEB_ORIGIN: WEB,
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_ISSUER_URL: 'http://127.0.0.1:1',
    });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/patient/auth/google' });
      expect(res.headers.location).toBe(`${WEB}/login/patient?error=google_failed`);
    } finally {
      await down.app.close();
    }
  });

  it('refuses an http issuer that is not this machine (before any request is made)', async () => {
    const lines: string[] = [];
    const remote = await createTestApp(
      t.db,
      { LOG_LEVEL: 'warn', WEB_ORIGIN: WEB, GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_ISSUER_URL: 'http://issuer.example' },
      undefined,
      (l) => lines.push(l),
    );
    try {
      const res = await remote.app.inject({ method: 'GET', url: '/patient/auth/google' });
      expect(res.headers.location).toBe(`${WEB}/login/patient?error=google_failed`);
      expect(lines.join('\n')).toMatch(/only requests to HTTPS are allowed/);
    } finally {
      await remote.app.close();
    }
  });

  it.each([
    ['nonce', { nonce: 'not-the-nonce-that-was-sent' }],
    ['PKCE verifier', { codeVerifier: 'x'.repeat(43) }],
  ])('fails when the %s does not match', async (_label, tamper) => {
    await setClaims({ email: uniqueEmail('tamper'), email_verified: true });
    const start = await t.app.inject({ method: 'GET', url: '/patient/auth/google' });
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    await t.db.db
      .update(oidcLogins)
      .set(tamper)
      .where(eq(oidcLogins.stateHash, hashToken(state)));
    const back = await fetch(new URL(start.headers.location as string), { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    const res = await t.app.inject({
      method: 'GET',
      url: callback.pathname + callback.search,
      headers: { cookie: String(start.headers['set-cookie']).split(';')[0] },
    });
    expect(res.headers.location).toBe(`${WEB}/login/patient?error=google_failed`);
  });

  it('offers no Google sign-in for doctors', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/doctor/auth/google' })).statusCode).toBe(404);
  });

  it('keeps the code and state out of the logs', async () => {
    const lines: string[] = [];
    const logged = await createTestApp(
      t.db,
      {
        LOG_LEVEL: 'info',
        GOOGLE_ISSUER_URL: mock.issuer,
        GOOGLE_CLIENT_ID: CLIENT_ID,
        GOOGLE_CLIENT_SECRET: 's',
        WEB_ORIGIN: WEB,
        API_PUBLIC_URL: API,
      },
      undefined,
      (l) => lines.push(l),
    );
    try {
      await setClaims({ email: uniqueEmail('logs'), email_verified: true });
      const { callback, location } = await signIn(logged.app);
      const log = lines.join('\n');
      expect(log).toContain('/patient/auth/google/callback?');
      expect(log).not.toContain(callback.searchParams.get('code')!);
      expect(log).not.toContain(callback.searchParams.get('state')!);
      expect(log).not.toContain(location.searchParams.get('token')!);
    } finally {
      await logged.app.close();
    }
  });
});
