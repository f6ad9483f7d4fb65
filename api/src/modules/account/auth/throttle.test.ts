import { and, eq } from 'drizzle-orm';
import { auditLog, loginFailures } from '../../../db/schema';
import { appPerFile, BACKENDS, PASSWORD, bearer, signup, totpCode, uniqueEmail, type TestApp } from '../../../test/helpers';
import { BAD_CREDENTIALS } from './messages';
import { ACCOUNT_WIDE, slowdownDelayMs } from './throttle';

// Issue 11 item 5: failed logins lock a (account, client address) pair, and a per-account pace
// bounds a guess spread over many addresses, without locking the owner out.

/** The i-th address of a botnet: every one new to the account. */
const botAddress = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const HOME = '192.0.2.10';
const OFFICE = '198.51.100.7';

describe.each(BACKENDS)('login throttling on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  beforeAll(() => ({ t } = fixture));

  const login = (email: string, password: string, ip: string, role: 'patient' | 'doctor' = 'patient') =>
    t.app.inject({ method: 'POST', url: `/${role}/login`, payload: { email, password }, remoteAddress: ip });

  const accountRow = async (email: string) => {
    const [row] = await t.db.db
      .select()
      .from(loginFailures)
      .where(and(eq(loginFailures.email, email), eq(loginFailures.client, ACCOUNT_WIDE)));
    return row;
  };

  describe('per (account, client address)', () => {
    it('5 failures from address A lock A for 15 minutes, not B: the owner signs in from B', async () => {
      const { email } = await signup(t.app, 'patient');
      for (let i = 0; i < 5; i++) expect((await login(email, 'wrong password', OFFICE)).statusCode).toBe(401);
      const locked = await login(email, PASSWORD, OFFICE); // even the right password
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ error: 'Too many failed attempts. Try again in 15 minutes.' });
      expect(locked.headers['retry-after']).toBe(String(15 * 60));

      const owner = await login(email, PASSWORD, HOME);
      expect(owner.statusCode).toBe(200);
      expect(owner.json().token).toEqual(expect.any(String));
      // The owner's success does not unlock the attacker's address.
      expect((await login(email, PASSWORD, OFFICE)).statusCode).toBe(429);
      t.clock.advance(15 * 60_000 + 1);
      expect((await login(email, PASSWORD, OFFICE)).statusCode).toBe(200);
    });

    it('a success clears its own pair: 4 more failures after it do not lock', async () => {
      const { email } = await signup(t.app, 'doctor');
      for (let i = 0; i < 4; i++) expect((await login(email, 'wrong password', HOME, 'doctor')).statusCode).toBe(401);
      expect((await login(email, PASSWORD, HOME, 'doctor')).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) expect((await login(email, 'wrong password', HOME, 'doctor')).statusCode).toBe(401);
      expect((await login(email, PASSWORD, HOME, 'doctor')).statusCode).toBe(200);
      const pair = await t.db.db
        .select()
        .from(loginFailures)
        .where(and(eq(loginFailures.email, email), eq(loginFailures.client, HOME)));
      expect(pair).toEqual([]);
    });

    it('locks an unknown e-mail per address the same way (a 429 reveals no account)', async () => {
      const email = uniqueEmail('ghost');
      for (let i = 0; i < 5; i++)
        expect((await login(email, 'wrong password', OFFICE)).json()).toEqual({ error: BAD_CREDENTIALS });
      const locked = await login(email, 'wrong password', OFFICE);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ error: 'Too many failed attempts. Try again in 15 minutes.' });
      expect((await login(email, 'wrong password', HOME)).statusCode).toBe(401);
    });
  });

  describe('per account, across addresses', () => {
    it('bounds a guess from a new address every 30 seconds to 36 in the first hour and 12 in the next', async () => {
      const { email } = await signup(t.app, 'patient');
      let bot = 0;
      async function hour() {
        const counts = { guessed: 0, paced: 0 };
        for (let s = 0; s < 3600; s += 30) {
          const res = await login(email, `guess ${bot}`, botAddress(++bot));
          if (res.statusCode === 401) counts.guessed++;
          else {
            expect(res.statusCode).toBe(429);
            expect(res.json()).toEqual({
              error: expect.stringMatching(/^Too many failed attempts\. Try again in \d+ (second|minute)s?\.$/),
            });
            expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
            expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(300);
            counts.paced++;
          }
          t.clock.advance(30_000);
        }
        return counts;
      }
      // 20 free, 9 while the delay doubles 1 s → 256 s, then one per 5 minutes (design in throttle.ts).
      const first = await hour();
      expect(first).toEqual({ guessed: 36, paced: 120 - 36 });
      const second = await hour();
      expect(second.guessed).toBe(12);
      // No address ever came back: without the account's pace every one of the 240 would have been a guess.
      expect(bot).toBe(240);
    }, 120_000);

    it('lets one of several parallel attempts take a free slot, whatever their addresses', async () => {
      const email = uniqueEmail('parallel');
      for (let i = 0; i < 20; i++) await login(email, 'wrong password', botAddress(1000 + i));
      t.clock.advance(slowdownDelayMs(20, 20));
      const codes = (
        await Promise.all(Array.from({ length: 6 }, (_, i) => login(email, 'wrong password', botAddress(2000 + i))))
      ).map((r) => r.statusCode);
      expect(codes.filter((c) => c === 401)).toHaveLength(1);
      expect(codes.filter((c) => c === 429)).toHaveLength(5);
    });

    it('does not pace an address the owner signed in from: it keeps only its own 5 tries', async () => {
      const { email } = await signup(t.app, 'patient');
      expect((await login(email, PASSWORD, HOME)).statusCode).toBe(200); // the security log knows HOME now
      for (let i = 0; i < 40; i++) await login(email, 'wrong password', botAddress(3000 + i));
      expect((await accountRow(email)).failures).toBe(20); // the 21st onwards waited for a slot
      // A new address waits for the account's next slot…
      const stranger = await login(email, PASSWORD, OFFICE);
      expect(stranger.statusCode).toBe(429);
      // …the owner at home does not.
      const owner = await login(email, PASSWORD, HOME);
      expect(owner.statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(owner.json().token) })).statusCode).toBe(
        200,
      );
      // A few tries, not a bypass: 5 failures still lock HOME itself.
      for (let i = 0; i < 5; i++) expect((await login(email, 'wrong password', HOME)).statusCode).toBe(401);
      expect((await login(email, PASSWORD, HOME)).statusCode).toBe(429);
    });

    it('paces an address again once its last sign-in there is more than 30 days old', async () => {
      const { email } = await signup(t.app, 'patient');
      expect((await login(email, PASSWORD, HOME)).statusCode).toBe(200);
      t.clock.advance(30 * 24 * 3_600_000 + 1000);
      for (let i = 0; i < 20; i++) await login(email, 'wrong password', botAddress(3500 + i));
      const paced = await login(email, PASSWORD, HOME);
      expect(paced.statusCode).toBe(429);
      expect(paced.headers['retry-after']).toBe('1');
    });

    it('lets the owner in from a new address once the Retry-After has passed', async () => {
      const { email } = await signup(t.app, 'doctor');
      for (let i = 0; i < 25; i++) await login(email, 'wrong password', botAddress(4000 + i), 'doctor');
      const paced = await login(email, PASSWORD, OFFICE, 'doctor');
      expect(paced.statusCode).toBe(429);
      t.clock.advance(Number(paced.headers['retry-after']) * 1000);
      expect((await login(email, PASSWORD, OFFICE, 'doctor')).statusCode).toBe(200);
    });

    it('forgets the account count after an hour without failures', async () => {
      const email = uniqueEmail('quiet');
      for (let i = 0; i < 25; i++) await login(email, 'wrong password', botAddress(5000 + i));
      expect((await login(email, 'wrong password', botAddress(5100))).statusCode).toBe(429);
      t.clock.advance(60 * 60_000 + 1);
      expect((await login(email, 'wrong password', botAddress(5101))).statusCode).toBe(401);
      expect((await accountRow(email)).failures).toBe(1);
    });

    it('counts the roles apart: a guess at the patient account does not pace the doctor login', async () => {
      const email = uniqueEmail('both');
      await signup(t.app, 'patient', { email });
      await signup(t.app, 'doctor', { email });
      for (let i = 0; i < 25; i++) await login(email, 'wrong password', botAddress(6000 + i), 'patient');
      expect((await login(email, PASSWORD, OFFICE, 'patient')).statusCode).toBe(429);
      expect((await login(email, PASSWORD, OFFICE, 'doctor')).statusCode).toBe(200);
    });
  });

  describe('the security log', () => {
    it('records a wrong two-factor code at sign-in as sign-in-failed, from the client address', async () => {
      const { email, token } = await signup(t.app, 'patient');
      const { secret } = (await t.app.inject({ method: 'GET', url: '/patient/qrCode', headers: bearer(token) })).json();
      const on = await t.app.inject({
        method: 'POST',
        url: '/patient/verifyqrCode',
        headers: bearer(token),
        payload: { code: totpCode(secret, t.clock.now()) },
      });
      expect(on.json()).toMatchObject({ verify: true });
      t.clock.advance(30_000);
      const first = (await login(email, PASSWORD, HOME)).json();
      expect(first.twoFactorRequired).toBe(true);
      const wrongCode = totpCode(secret, new Date(t.clock.now().getTime() + 10 * 60_000));
      const res = await t.app.inject({
        method: 'POST',
        url: '/patient/verify2FA',
        payload: { patientId: first.patientId, code: wrongCode },
        remoteAddress: HOME,
      });
      expect(res.statusCode).toBe(401);
      const rows = await t.db.db
        .select({ action: auditLog.action, ip: auditLog.ip, entityId: auditLog.entityId })
        .from(auditLog)
        .where(and(eq(auditLog.actorId, first.patientId), eq(auditLog.entity, 'account')));
      expect(rows.filter((r) => r.action === 'sign-in-failed')).toEqual([
        { action: 'sign-in-failed', ip: HOME, entityId: first.patientId },
      ]);
    });
  });
});
