import { and, eq } from 'drizzle-orm';
import { HANDOFF_INVALID, type Role } from '@careloop/shared-contracts';
import { auditLog } from '../../../db/schema';
import { account, type Account } from '../../../test/clinical';
import { appPerFile, BACKENDS, bearer, countRows, totpCode, type TestApp } from '../../../test/helpers';
import { issueEmailToken } from '../email-verification/tokens';
import { HANDOFF_TTL_MS, issueHandoffCode } from './codes';

describe.each(BACKENDS)('hand-off code exchange (POST /{role}/auth/exchange) on %s', (backend) => {
  let t: TestApp;
  // doctors without two-factor sign in with a code too: no role is forced to have it here
  const fixture = appPerFile(backend, { REQUIRE_MFA_FOR: 'none' });
  beforeAll(() => ({ t } = fixture));

  const exchange = (role: Role, code: unknown) =>
    t.app.inject({ method: 'POST', url: `/${role}/auth/exchange`, payload: { code } });
  const codeFor = (who: Account) => issueHandoffCode(t.db.db, who.role, who.id, t.clock.now());
  const signIns = async (who: Account) =>
    (
      await t.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, who.id), eq(auditLog.action, 'sign-in')))
    ).length;
  /** A refusal: 400, the one generic error, and no session made. */
  const expectRefused = async (res: Awaited<ReturnType<typeof exchange>>, sessionsBefore: number) => {
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: HANDOFF_INVALID });
    expect(await countRows(t.db, 'sessions')).toBe(sessionsBefore);
  };

  describe.each(['patient', 'doctor'] as const)('%s', (role) => {
    it("answers a session of the code's account, records the sign-in, and the session works", async () => {
      const who = await account(t, role);
      const before = await signIns(who);
      const res = await exchange(role, await codeFor(who));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ token: expect.stringMatching(/^[\w-]{43}$/), role });
      const me = await t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(res.json().token) });
      expect(me.statusCode).toBe(200);
      expect(me.json()[role]._id).toBe(who.id);
      expect(await signIns(who)).toBe(before + 1);
    });

    it('works once: a second exchange of the same code is refused', async () => {
      const who = await account(t, role);
      const code = await codeFor(who);
      expect((await exchange(role, code)).statusCode).toBe(200);
      await expectRefused(await exchange(role, code), await countRows(t.db, 'sessions'));
    });

    it('lets only one of two simultaneous exchanges of a code through', async () => {
      const who = await account(t, role);
      const code = await codeFor(who);
      const answers = await Promise.all([exchange(role, code), exchange(role, code), exchange(role, code)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    });

    it('works for 60 seconds and no longer (test clock)', async () => {
      const who = await account(t, role);
      const early = await codeFor(who);
      const late = await codeFor(who);
      t.clock.advance(HANDOFF_TTL_MS - 1_000);
      expect((await exchange(role, early)).statusCode).toBe(200);
      t.clock.advance(1_000); // exactly 60 s after it was issued
      await expectRefused(await exchange(role, late), await countRows(t.db, 'sessions'));
    });

    it("refuses the other role's code, and spends it (a code is tried once)", async () => {
      const who = await account(t, role);
      const other: Role = role === 'patient' ? 'doctor' : 'patient';
      const code = await codeFor(who);
      await expectRefused(await exchange(other, code), await countRows(t.db, 'sessions'));
      await expectRefused(await exchange(role, code), await countRows(t.db, 'sessions'));
    });

    it('refuses a session token, an e-mail link token and an unknown code with the same answer', async () => {
      const who = await account(t, role);
      const emailLink = await issueEmailToken(t.db.db, { role, accountId: who.id, email: who.email, now: t.clock.now() });
      const sessions = await countRows(t.db, 'sessions');
      for (const code of [who.token, emailLink, 'x'.repeat(43)]) await expectRefused(await exchange(role, code), sessions);
      // The refused session token is still just the session it was: not spent, not swapped.
      expect((await t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(who.token) })).statusCode).toBe(200);
    });

    it('never skips the code step: a code of an account that turned two-factor on since is refused', async () => {
      const who = await account(t, role);
      const code = await codeFor(who);
      const { secret } = (await t.app.inject({ method: 'GET', url: `/${role}/qrCode`, headers: bearer(who.token) })).json();
      const on = await t.app.inject({
        method: 'POST',
        url: `/${role}/verifyqrCode`,
        headers: bearer(who.token),
        payload: { code: totpCode(secret, t.clock.now()) },
      });
      expect(on.json()).toMatchObject({ verify: true });
      await expectRefused(await exchange(role, code), await countRows(t.db, 'sessions'));
    });
  });

  it.each([
    ['no code', {}],
    ['an empty code', { code: '' }],
    ['a code that is not a string', { code: 12345 }],
    ['a code of 201 characters', { code: 'a'.repeat(201) }],
    ['an unknown field', { code: 'abc', token: 'abc' }],
  ])('answers 400 with a JSON error to %s, making no session', async (_label, payload) => {
    const sessions = await countRows(t.db, 'sessions');
    const res = await t.app.inject({ method: 'POST', url: '/patient/auth/exchange', payload });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().error).toBe('string');
    expect(await countRows(t.db, 'sessions')).toBe(sessions);
  });

  it('ignores a bearer token sent along: the code alone decides', async () => {
    const holder = await account(t, 'patient');
    const other = await account(t, 'patient');
    const res = await t.app.inject({
      method: 'POST',
      url: '/patient/auth/exchange',
      headers: bearer(holder.token),
      payload: { code: await codeFor(other) },
    });
    expect(res.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/patient/me', headers: bearer(res.json().token) });
    expect(me.json().patient._id).toBe(other.id);
  });
});

describe('hand-off code exchange rate limit', () => {
  const fixture = appPerFile('pglite', { LOGIN_RATE_LIMIT_PER_MINUTE: '3', REQUIRE_MFA_FOR: 'none' });
  it('limits exchanges per IP like login (429 with a JSON error)', async () => {
    const { t } = fixture;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/patient/auth/exchange', payload: { code: `unknown-${i}` } });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(typeof res.json().error).toBe('string');
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});
