import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import type { DbAdapter } from '../adapters/db';
import { accountTables, accountTokens } from '../db/schema';
import { BACKENDS, createTestDb, type TestDb } from '../test/helpers';
import { consumeToken, deleteTokens, issueAllowance, issueToken, peekToken, voidTokens, type TokenKind } from './one-time-token';
import { hashToken } from './tokens';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LINK: TokenKind = { purpose: 'password-reset', lifetimeMs: 30 * MINUTE, keepMs: DAY };
const MAIL: TokenKind = { purpose: 'email-verify', lifetimeMs: DAY, keepMs: DAY };
const CODE: TokenKind = { purpose: 'handoff', lifetimeMs: MINUTE, keepMs: 0, spentByAnyTry: true };

describe.each(BACKENDS)('one-time tokens (lib/one-time-token.ts) on %s', (backend) => {
  let tdb: TestDb;
  let db: DbAdapter['db'];
  let now: Date;
  beforeAll(async () => {
    tdb = await createTestDb(backend);
    db = tdb.adapter.db;
  });
  afterAll(() => tdb.cleanup());
  // The process clock; the database's clock is the real one (moved by `elapse`).
  beforeEach(() => {
    now = new Date();
  });

  async function newAccount(role: Role = 'patient'): Promise<string> {
    const t = accountTables[role];
    const [row] = await db
      .insert(t)
      .values({ name: 'Token Holder', email: `${randomUUID()}@example.com`, passwordHash: 'x' })
      .returning({ id: t.id });
    return row.id;
  }
  /** As if `ms` of database time had passed for the token (its created_at and expires_at). */
  async function elapse(token: string, ms: number) {
    await db
      .update(accountTokens)
      .set({
        createdAt: sql`created_at - ${ms}::float8 * interval '1 millisecond'`,
        expiresAt: sql`expires_at - ${ms}::float8 * interval '1 millisecond'`,
      })
      .where(eq(accountTokens.tokenHash, hashToken(token)));
  }
  const rowOf = async (token: string) =>
    (
      await db
        .select()
        .from(accountTokens)
        .where(eq(accountTokens.tokenHash, hashToken(token)))
    )[0];

  it('hands out 256 random bits and stores only their SHA-256 hash', async () => {
    const accountId = await newAccount();
    const token = await issueToken(db, LINK, { role: 'patient', accountId, now });
    expect(token).toMatch(/^[\w-]{43}$/);
    const row = await rowOf(token);
    expect(row).toMatchObject({ purpose: 'password-reset', role: 'patient', accountId, usedAt: null, email: null });
    const stored = await db.execute(sql`select * from account_tokens`);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('works for its lifetime and no longer, by the database clock', async () => {
    const accountId = await newAccount();
    const token = await issueToken(db, LINK, { role: 'patient', accountId, now });
    await elapse(token, 29 * MINUTE);
    expect(await peekToken(db, LINK, { role: 'patient', token }, now)).toEqual({ accountId, email: null });
    await elapse(token, 2 * MINUTE);
    expect(await peekToken(db, LINK, { role: 'patient', token }, now)).toBeUndefined();
    expect(await consumeToken(db, LINK, { role: 'patient', token }, now)).toBeUndefined();
  });

  it('works for its lifetime and no longer, by the process clock', async () => {
    const accountId = await newAccount();
    const token = await issueToken(db, LINK, { role: 'patient', accountId, now });
    const later = (ms: number) => new Date(now.getTime() + ms);
    expect(await peekToken(db, LINK, { role: 'patient', token }, later(30 * MINUTE - 1000))).toBeDefined();
    expect(await peekToken(db, LINK, { role: 'patient', token }, later(30 * MINUTE))).toBeUndefined();
    expect(await consumeToken(db, LINK, { role: 'patient', token }, later(30 * MINUTE))).toBeUndefined();
    expect((await rowOf(token)).usedAt).toBeNull();
  });

  it('is spent once: a peek spends nothing, the first consume gets it, the next gets nothing', async () => {
    const accountId = await newAccount();
    const token = await issueToken(db, MAIL, { role: 'patient', accountId, now, email: 'new@example.com' });
    expect(await peekToken(db, MAIL, { role: 'patient', token }, now)).toEqual({ accountId, email: 'new@example.com' });
    expect(await consumeToken(db, MAIL, { role: 'patient', token }, now)).toEqual({ accountId, email: 'new@example.com' });
    expect(await consumeToken(db, MAIL, { role: 'patient', token }, now)).toBeUndefined();
    expect(await peekToken(db, MAIL, { role: 'patient', token }, now)).toBeUndefined();
  });

  it.each([
    ['a link', LINK],
    ['a code', CODE],
  ])('lets exactly one of eight simultaneous transactions spend %s', async (_label, kind) => {
    const accountId = await newAccount();
    const token = await issueToken(db, kind, { role: 'patient', accountId, now });
    const tries = Array.from({ length: 8 }, () =>
      db.transaction((tx) => consumeToken(tx, kind, { role: 'patient', token }, now)),
    );
    const got = (await Promise.all(tries)).filter((r) => r !== undefined);
    expect(got).toEqual([{ accountId, email: null }]);
  });

  it("refuses another role's, account's or kind's token and leaves it unspent", async () => {
    const accountId = await newAccount();
    const token = await issueToken(db, LINK, { role: 'patient', accountId, now });
    expect(await consumeToken(db, LINK, { role: 'doctor', token }, now)).toBeUndefined();
    expect(await consumeToken(db, LINK, { role: 'patient', token, accountId: randomUUID() }, now)).toBeUndefined();
    expect(await consumeToken(db, MAIL, { role: 'patient', token }, now)).toBeUndefined();
    expect(await consumeToken(db, CODE, { role: 'patient', token }, now)).toBeUndefined();
    expect((await rowOf(token)).usedAt).toBeNull();
    expect(await consumeToken(db, LINK, { role: 'patient', token, accountId }, now)).toEqual({ accountId, email: null });
  });

  it('spends a tried-once kind on any try: the wrong role, or once dead', async () => {
    const accountId = await newAccount();
    const wrongRole = await issueToken(db, CODE, { role: 'patient', accountId, now });
    expect(await consumeToken(db, CODE, { role: 'doctor', token: wrongRole }, now)).toBeUndefined();
    expect(await consumeToken(db, CODE, { role: 'patient', token: wrongRole }, now)).toBeUndefined();
    const dead = await issueToken(db, CODE, { role: 'patient', accountId, now });
    await elapse(dead, MINUTE);
    expect(await consumeToken(db, CODE, { role: 'patient', token: dead }, now)).toBeUndefined();
    expect((await rowOf(dead)).usedAt).not.toBeNull();
  });

  it.each([
    ['password', { passwordHash: 'changed' }],
    ['e-mail', { email: `${randomUUID()}@example.com` }],
    ['verification', { emailVerifiedAt: new Date() }],
  ])('is void once the account changes (its %s), for every kind', async (_what, change) => {
    for (const role of ['patient', 'doctor'] as const) {
      const accountId = await newAccount(role);
      const tokens = await Promise.all(
        [LINK, MAIL, CODE].map(async (kind) => [kind, await issueToken(db, kind, { role, accountId, now })] as const),
      );
      const t = accountTables[role];
      await db.update(t).set(change).where(eq(t.id, accountId));
      for (const [kind, token] of tokens) {
        expect(await peekToken(db, kind, { role, token }, now)).toBeUndefined();
        expect(await consumeToken(db, kind, { role, token }, now)).toBeUndefined();
      }
      // A token issued after the change works.
      const fresh = await issueToken(db, LINK, { role, accountId, now });
      expect(await consumeToken(db, LINK, { role, token: fresh }, now)).toEqual({ accountId, email: null });
    }
  });

  it('voids one kind, every kind, or all but those proving an address; deletes them all', async () => {
    const accountId = await newAccount();
    const other = await newAccount();
    const issue = (kind: TokenKind, email?: string, id = accountId) =>
      issueToken(db, kind, { role: 'patient', accountId: id, now, email });
    const live = async (kind: TokenKind, token: string) =>
      (await peekToken(db, kind, { role: 'patient', token }, now)) !== undefined;

    const [link, keep, drop, othersLink] = [
      await issue(LINK),
      await issue(MAIL, 'a@x.org'),
      await issue(MAIL, 'b@x.org'),
      await issue(LINK, undefined, other),
    ];
    await voidTokens(db, MAIL, { role: 'patient', accountId, now, unlessEmail: 'a@x.org' });
    expect([await live(LINK, link), await live(MAIL, keep), await live(MAIL, drop)]).toEqual([true, true, false]);
    await voidTokens(db, LINK, { role: 'doctor', accountId, now });
    expect(await live(LINK, link)).toBe(true);
    await voidTokens(db, 'all', { role: 'patient', accountId, now });
    expect([await live(LINK, link), await live(MAIL, keep)]).toEqual([false, false]);
    expect(await live(LINK, othersLink)).toBe(true);

    await deleteTokens(db, { role: 'patient', accountId });
    expect(await db.select().from(accountTokens).where(eq(accountTokens.accountId, accountId))).toEqual([]);
    expect(await rowOf(othersLink)).toBeDefined();
  });

  it('sweeps tokens of its kind dead for longer than the kind keeps them when one is issued', async () => {
    const accountId = await newAccount();
    const old = await issueToken(db, LINK, { role: 'patient', accountId, now });
    const recent = await issueToken(db, LINK, { role: 'patient', accountId, now });
    const code = await issueToken(db, CODE, { role: 'patient', accountId, now });
    await elapse(old, LINK.lifetimeMs + DAY + MINUTE);
    await elapse(recent, LINK.lifetimeMs + DAY - MINUTE);
    await elapse(code, 2 * MINUTE);
    await issueToken(db, MAIL, { role: 'patient', accountId, now });
    expect([await rowOf(old), await rowOf(code)].map(Boolean)).toEqual([true, true]); // another kind's sweep leaves them
    await issueToken(db, LINK, { role: 'patient', accountId, now });
    expect([await rowOf(old), await rowOf(recent)].map(Boolean)).toEqual([false, true]);
    await issueToken(db, CODE, { role: 'patient', accountId, now });
    expect(await rowOf(code)).toBeUndefined();
  });

  it('allows one token a gap and so many an hour', async () => {
    const accountId = await newAccount();
    const args = { role: 'patient' as const, accountId, minGapMs: MINUTE, perHour: 3 };
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(await issueAllowance(db, LINK, { ...args, now: at(0) })).toBe('ok');
    await issueToken(db, LINK, { role: 'patient', accountId, now: at(0) });
    expect(await issueAllowance(db, LINK, { ...args, now: at(MINUTE - 1) })).toBe('too-soon');
    expect(await issueAllowance(db, MAIL, { ...args, now: at(MINUTE - 1) })).toBe('ok'); // kinds count apart
    await issueToken(db, LINK, { role: 'patient', accountId, now: at(MINUTE) });
    await issueToken(db, LINK, { role: 'patient', accountId, now: at(2 * MINUTE) });
    expect(await issueAllowance(db, LINK, { ...args, now: at(10 * MINUTE) })).toBe('too-many');
    // the first leaves the hour
    expect(await issueAllowance(db, LINK, { ...args, now: at(60 * MINUTE + 1) })).toBe('ok');
  });
});
