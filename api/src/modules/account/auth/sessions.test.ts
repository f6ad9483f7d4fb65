import { and, eq } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import { auditLog, sessions } from '../../../db/schema';
import { hashToken } from '../../../lib/tokens';
import { account, type Account } from '../../../test/clinical';
import {
  appPerFile,
  BACKENDS,
  bearer,
  PASSWORD,
  readOutbox,
  totpCode,
  uniqueEmail,
  verificationTokenFor,
  type TestApp,
} from '../../../test/helpers';
import { deviceName } from './device';

const MIN = 60_000;
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const RESET_LINK = /\/(patient|doctor)\/reset-password\/([0-9a-f-]+)\/([A-Za-z0-9_-]+)/;

describe('deviceName', () => {
  it('names the browser and system of a User-Agent', () => {
    expect(deviceName(CHROME_LINUX)).toBe('Chrome 131 on Linux');
    expect(deviceName(FIREFOX_WINDOWS)).toBe('Firefox 133 on Windows 10');
    expect(deviceName('')).toBe('Unknown device');
    expect(deviceName('lightMyRequest')).toBe('Unknown device');
  });
});

describe.each(BACKENDS)('session limits and the sessions page on %s', (backend) => {
  let t: TestApp;
  // The shipped idle limit (the other suites' test config stretches it).
  // 2FA is turned on and off by hand here: no role is forced to have it
  const fixture = appPerFile(backend, { SESSION_IDLE_MINUTES: '15', REQUIRE_MFA_FOR: 'none' });
  beforeAll(() => ({ t } = fixture));

  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  const me = (who: { role: Role; token: string }) => get(`/${who.role}/me`, who.token);
  const list = (who: { role: Role; token: string }) => get(`/${who.role}/sessions`, who.token);
  /** Another sign-in of the same account, from another device. */
  async function signIn(who: Account, userAgent = FIREFOX_WINDOWS, password = PASSWORD): Promise<Account> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/${who.role}/login`,
      headers: { 'user-agent': userAgent },
      payload: { email: who.email, password },
    });
    expect(res.statusCode).toBe(200);
    return { ...who, token: res.json().token as string };
  }
  const lastSeenOf = async (token: string) =>
    (
      await t.db.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(token)))
    )[0].lastSeenAt;
  const startedAt = async (who: Account) =>
    (
      await t.db.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(who.token)))
    )[0].createdAt.getTime();
  const endedEvents = async (who: Account) =>
    (
      await t.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, who.id), eq(auditLog.action, 'sessions-ended')))
    ).length;

  describe.each(['patient', 'doctor'] as const)('%s', (role) => {
    it('refuses a session idle for 16 minutes with "Session expired"', async () => {
      const who = await account(t, role);
      t.clock.advance(14 * MIN);
      expect((await me(who)).statusCode).toBe(200);
      t.clock.advance(16 * MIN);
      for (const res of [await me(who), await list(who)]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: 'Session expired' });
      }
      // Unknown and ended tokens stay plainly unauthorized.
      expect((await me({ role, token: 'x'.repeat(43) })).json()).toEqual({ error: 'Unauthorized' });
      const other = await signIn(await account(t, role));
      await t.app.inject({ method: 'POST', url: `/${role}/logout`, headers: bearer(other.token) });
      expect((await me(other)).json()).toEqual({ error: 'Unauthorized' });
    });

    it('slides: a request at minute 10 keeps it alive at minute 20; writes at most once a minute', async () => {
      const who = await account(t, role);
      const started = await lastSeenOf(who.token);
      t.clock.advance(30_000);
      expect((await list(who)).statusCode).toBe(200);
      expect(await lastSeenOf(who.token)).toEqual(started); // under a minute: not written
      t.clock.advance(10 * MIN - 30_000);
      expect((await list(who)).statusCode).toBe(200);
      expect((await lastSeenOf(who.token)).getTime()).toBe(t.clock.now().getTime());
      t.clock.advance(10 * MIN);
      expect((await me(who)).statusCode).toBe(200);
      t.clock.advance(16 * MIN);
      expect((await me(who)).json()).toEqual({ error: 'Session expired' });
    });

    it('refuses a busy session after SESSION_MAX_HOURS (12) with "Session expired"', async () => {
      const who = await account(t, role);
      for (let minutes = 14; minutes < 12 * 60; minutes += 14) {
        t.clock.advance(14 * MIN);
        expect((await list(who)).statusCode).toBe(200);
      }
      // A second before the limit it still works; a second after, it does not (6 minutes after the last request).
      t.clock.advance(12 * 60 * MIN - (t.clock.now().getTime() - (await startedAt(who))) - 1000);
      expect((await list(who)).statusCode).toBe(200);
      t.clock.advance(2000);
      const res = await list(who);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Session expired' });
    });

    it('lists the live sessions with device, address and this device marked; ends one; ends the others', async () => {
      const first = await signIn(await account(t, role), CHROME_LINUX);
      const second = await signIn(first, FIREFOX_WINDOWS);
      const third = await signIn(first, FIREFOX_WINDOWS);
      // account() signed up first: four sessions in all.
      const res = await list(first);
      expect(res.statusCode).toBe(200);
      const all = res.json().sessions as { id: string; device: string; ip: string; current: boolean; startedAt: string }[];
      expect(all).toHaveLength(4);
      const current = all.filter((s) => s.current);
      expect(current).toHaveLength(1);
      expect(current[0]).toMatchObject({ device: 'Chrome 131 on Linux', ip: '127.0.0.1' });
      expect(new Date(current[0].startedAt).getTime()).toBe(t.clock.now().getTime());
      const secondId = (await list(second)).json().sessions.find((s: { current: boolean }) => s.current).id as string;

      const events = await endedEvents(first);
      const one = await t.app.inject({ method: 'DELETE', url: `/${role}/sessions/${secondId}`, headers: bearer(first.token) });
      expect(one.statusCode).toBe(200);
      expect(one.json()).toEqual({ ended: 1 });
      expect((await me(second)).json()).toEqual({ error: 'Unauthorized' });
      expect((await me(third)).statusCode).toBe(200);
      expect((await list(first)).json().sessions).toHaveLength(3);
      expect(await endedEvents(first)).toBe(events + 1);

      const others = await t.app.inject({ method: 'POST', url: `/${role}/sessions/end-others`, headers: bearer(first.token) });
      expect(others.statusCode).toBe(200);
      expect(others.json()).toEqual({ ended: 2 });
      expect((await me(third)).statusCode).toBe(401);
      expect((await me(first)).statusCode).toBe(200);
      expect((await list(first)).json().sessions).toEqual([expect.objectContaining({ current: true })]);
      expect(await endedEvents(first)).toBe(events + 2);
    });

    it("answers 404 for another account's session id and leaves it alone", async () => {
      const mine = await account(t, role);
      const theirs = await account(t, role);
      const theirId = (await list(theirs)).json().sessions[0].id as string;
      const events = await endedEvents(mine);
      const res = await t.app.inject({ method: 'DELETE', url: `/${role}/sessions/${theirId}`, headers: bearer(mine.token) });
      expect(res.statusCode).toBe(404);
      expect((await me(theirs)).statusCode).toBe(200);
      expect(await endedEvents(mine)).toBe(events);
      // Nor through the other role's door.
      const otherRole = role === 'patient' ? 'doctor' : 'patient';
      const cross = await t.app.inject({
        method: 'DELETE',
        url: `/${otherRole}/sessions/${theirId}`,
        headers: bearer(mine.token),
      });
      expect(cross.statusCode).toBe(403);
      expect((await me(theirs)).statusCode).toBe(200);
    });

    it('a password change keeps this device signed in and ends the others; a reset ends all', async () => {
      const who = await account(t, role);
      const other = await signIn(who);
      const changed = await t.app.inject({
        method: 'PATCH',
        url: `/${role}/me`,
        headers: bearer(who.token),
        payload: { password: 'another good passphrase', currentPassword: PASSWORD },
      });
      expect(changed.statusCode).toBe(200);
      expect((await me({ role, token: changed.json().token })).statusCode).toBe(200);
      expect((await me(other)).statusCode).toBe(401);

      const kept = { ...who, token: changed.json().token as string };
      await t.app.inject({ method: 'POST', url: `/${role}/forgot-password`, payload: { email: who.email } });
      await t.app.backgroundTasks.idle();
      const mails = await readOutbox(t);
      const m = RESET_LINK.exec(mails[mails.length - 1].text);
      if (!m) throw new Error('no reset link');
      const reset = await t.app.inject({
        method: 'POST',
        url: `/${role}/reset-password/${m[2]}/${m[3]}`,
        payload: { password: 'yet another good passphrase' },
      });
      expect(reset.statusCode).toBe(200);
      expect((await me(kept)).statusCode).toBe(401);
    });

    it('turning two-factor on, then off, ends the other sessions and keeps this one', async () => {
      const who = await account(t, role);
      const other = await signIn(who);
      const setup = (await get(`/${role}/qrCode`, who.token)).json();
      const on = await t.app.inject({
        method: 'POST',
        url: `/${role}/verifyqrCode`,
        headers: bearer(who.token),
        payload: { code: totpCode(setup.secret, t.clock.now()) },
      });
      expect(on.json()).toMatchObject({ verify: true });
      expect((await me(other)).statusCode).toBe(401);
      expect((await me(who)).statusCode).toBe(200);

      // Another device signs in with a code, then this one turns two-factor off.
      t.clock.advance(30_000);
      const first = await t.app.inject({
        method: 'POST',
        url: `/${role}/login`,
        payload: { email: who.email, password: PASSWORD },
      });
      const verified = await t.app.inject({
        method: 'POST',
        url: `/${role}/verify2FA`,
        payload: { [`${role}Id`]: who.id, code: totpCode(setup.secret, t.clock.now()) },
      });
      expect(first.json().twoFactorRequired).toBe(true);
      const again = { ...who, token: verified.json().token as string };
      expect((await me(again)).statusCode).toBe(200);
      const off = await t.app.inject({
        method: 'POST',
        url: `/${role}/remove2FA`,
        headers: bearer(who.token),
        payload: { currentPassword: PASSWORD },
      });
      expect(off.statusCode).toBe(200);
      expect((await me(again)).statusCode).toBe(401);
      expect((await me(who)).statusCode).toBe(200);
    });

    it('a confirmed e-mail change ends the other sessions, keeping the browser that opened the link', async () => {
      const who = await account(t, role);
      const other = await signIn(who);
      const newEmail = uniqueEmail('moved');
      const asked = await t.app.inject({
        method: 'PATCH',
        url: `/${role}/me`,
        headers: bearer(who.token),
        payload: { email: newEmail, currentPassword: PASSWORD },
      });
      expect(asked.statusCode).toBe(200);
      // Asking changes nothing yet.
      expect((await me(other)).statusCode).toBe(200);
      const link = await verificationTokenFor(t.app, role, newEmail);
      const done = await t.app.inject({
        method: 'POST',
        url: `/${role}/verify-email/${link}`,
        headers: bearer(who.token),
        payload: { password: PASSWORD },
      });
      expect(done.statusCode).toBe(200);
      expect((await me(other)).statusCode).toBe(401);
      expect((await me(who)).statusCode).toBe(200);
    });
  });
});
