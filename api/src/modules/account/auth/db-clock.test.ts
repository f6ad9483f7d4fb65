import { sql } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import { BACKENDS, appPerFile, bearer, readOutbox, signup, type TestApp } from '../../../test/helpers';

/*
 * Lifetimes follow the DATABASE's clock (lib/db-clock.ts). The process clock (the app's ManualClock)
 * runs a day fast when the session or link is issued and is then put right, as NTP would; the
 * database's clock stays real. Real time passing is played by moving every stored time of the
 * table back by that much (the database's clock itself cannot be moved).
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(BACKENDS)('lifetimes by the database clock on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend, { WEB_ORIGIN: 'http://web.example' });
  beforeAll(() => ({ t } = fixture));

  /** As if `ms` of real time had passed for the rows of `table` (its created_at and expires_at). */
  async function elapse(table: 'sessions' | 'account_tokens', ms: number) {
    await t.db.db.execute(
      sql.raw(
        `update ${table} set created_at = created_at - interval '${ms} milliseconds', expires_at = expires_at - interval '${ms} milliseconds'`,
      ),
    );
  }
  const me = (role: Role, token: string) => t.app.inject({ method: 'GET', url: `/${role}/me`, headers: bearer(token) });

  it('a session issued while the process clock ran a day fast ends after 12 h of database time', async () => {
    const { email } = await signup(t.app, 'doctor', {}, { twoFactor: false }); // a password login: the session is what this is about
    t.clock.advance(DAY); // the process clock is a day fast at login
    const login = await t.app.inject({
      method: 'POST',
      url: '/doctor/login',
      payload: { email, password: 'correct horse battery' },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().token as string;
    t.clock.advance(-DAY); // and is put right

    await elapse('sessions', 11.5 * HOUR);
    expect((await me('doctor', token)).statusCode).toBe(200);
    await elapse('sessions', 1 * HOUR); // 12.5 h after login
    expect((await me('doctor', token)).statusCode).toBe(401);
    // the patient profile reads its session in the same statement as the profile: same rule
    const patient = await signup(t.app, 'patient');
    await elapse('sessions', 12.5 * HOUR);
    expect((await me('patient', patient.token)).statusCode).toBe(401);
  });

  it('the stored expiry is the database clock + the lifetime, whatever the process clock says', async () => {
    t.clock.advance(DAY);
    const { token } = await signup(t.app, 'patient', {}, { verified: false });
    t.clock.advance(-DAY);
    const rows = await t.db.db.execute(
      sql`select extract(epoch from expires_at - now()) * 1000 as ms from sessions order by created_at desc limit 1`,
    );
    const ms = Number((rows as unknown as { rows: Array<{ ms: number }> }).rows[0].ms);
    expect(ms).toBeGreaterThan(12 * HOUR - 60_000);
    expect(ms).toBeLessThanOrEqual(12 * HOUR);
    expect((await me('patient', token)).statusCode).toBe(200);
  });

  it('a reset link issued while the process clock ran a day fast dies after 30 minutes of database time', async () => {
    const { email } = await signup(t.app, 'patient');
    t.clock.advance(DAY);
    expect((await t.app.inject({ method: 'POST', url: '/patient/forgot-password', payload: { email } })).statusCode).toBe(200);
    const mails = await readOutbox(t);
    const link = /\/patient\/reset-password\/([0-9a-f-]{36})\/([A-Za-z0-9_-]{43})/.exec(mails[mails.length - 1].text);
    if (!link) throw new Error('no reset link mailed');
    t.clock.advance(-DAY);

    await elapse('account_tokens', 31 * 60_000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/patient/reset-password/${link[1]}/${link[2]}`,
      payload: { password: 'a brand new passphrase 42' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('the process clock still ends a session on its own (a ManualClock moved past the lifetime)', async () => {
    const { token } = await signup(t.app, 'patient');
    t.clock.advance(12 * HOUR + 1000);
    expect((await me('patient', token)).statusCode).toBe(401);
    t.clock.advance(-(12 * HOUR + 1000));
  });
});
