import { and, desc, eq, gt, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import type { Queryable } from '../db/queryable';
import { boundToAccount, securityVersionOf } from '../db/account-version';
import { accountTokens, type AccountTokenPurpose } from '../db/schema';
import { dbNowMinus, dbNowPlus, liveByBothClocks } from './db-clock';
import { hashToken, newToken } from './tokens';

/*
 * One-time tokens: the password-reset link, the e-mail verification link and the hand-off code of
 * the Google sign-in. Every one of them, whatever it is for, is
 *   - issued as 256 random bits (lib/tokens.ts), handed to its owner once and stored only as its
 *     SHA-256 hash (table account_tokens, one row per token, `purpose` telling them apart);
 *   - live for its kind's lifetime, by the database's clock and the process's (lib/db-clock.ts);
 *   - spent once: consumeToken is a single UPDATE … WHERE used_at IS NULL, so of any number of
 *     racing requests exactly one gets the token;
 *   - bound to the account as it was when issued (db/account-version.ts): an e-mail, password or
 *     verification change moves the account's security_version on, and the token is void.
 * Modules declare a TokenKind and never touch the table's liveness rules themselves.
 */

export interface TokenKind {
  purpose: AccountTokenPurpose;
  /** How long a token works after it is issued. */
  lifetimeMs: number;
  /** How long a dead token is kept (to tell "already used" from "unknown"); older ones are swept when one is issued. */
  keepMs: number;
  /**
   * Any try spends the token, even for another role or account or once it is dead: a code is tried
   * once (the hand-off code). Otherwise only a try that gets the token spends it.
   */
  spentByAnyTry?: boolean;
}

/** Which token of a kind: the token itself (as handed out), for a role, optionally of one account. */
export interface TokenRef {
  role: Role;
  token: string;
  /** The account the token must belong to (a reset link names it); any when left out. */
  accountId?: string;
}

/** What a token stands for. */
export interface TokenHolder {
  accountId: string;
  /** The address an 'email-verify' token proves; null for the other kinds. */
  email: string | null;
}

const t = accountTokens;

/**
 * A new token of `kind` for the account; returns the token itself (to mail or hand over), of which
 * only the hash is stored. `accountVersion`: the account's security_version when the caller has
 * just read it (under a row lock); else it is read here.
 */
export async function issueToken(
  db: Queryable,
  kind: TokenKind,
  args: { role: Role; accountId: string; now: Date; email?: string; accountVersion?: number },
): Promise<string> {
  const token = newToken();
  const accountVersion = args.accountVersion ?? (await securityVersionOf(db, args.role, args.accountId)) ?? null;
  await db.insert(t).values({
    tokenHash: hashToken(token),
    purpose: kind.purpose,
    role: args.role,
    accountId: args.accountId,
    email: args.email ?? null,
    accountVersion,
    createdAt: args.now,
    expiresAt: dbNowPlus(kind.lifetimeMs),
  });
  // Keep the table small: tokens dead for longer than their kind keeps them are of no use to anyone.
  await db.delete(t).where(and(eq(t.purpose, kind.purpose), lt(t.expiresAt, dbNowMinus(kind.keepMs))));
  return token;
}

/** The row of `token` for `role` and `kind`, whatever its state. */
export function isToken(kind: TokenKind, role: Role, token: string): SQL {
  return and(eq(t.tokenHash, hashToken(token)), eq(t.purpose, kind.purpose), eq(t.role, role))!;
}

/** Tokens of `kind` and `role` that still work: unused, unexpired by both clocks, bound to the account as it is. */
export function liveTokens(kind: TokenKind, role: Role, now: Date): SQL {
  return and(
    eq(t.purpose, kind.purpose),
    eq(t.role, role),
    isNull(t.usedAt),
    liveByBothClocks(t.expiresAt, t.createdAt, now, kind.lifetimeMs),
    boundToAccount(role, t.accountVersion, t.accountId),
  )!;
}

function liveToken(kind: TokenKind, ref: TokenRef, now: Date): SQL {
  return and(
    eq(t.tokenHash, hashToken(ref.token)),
    liveTokens(kind, ref.role, now),
    ref.accountId === undefined ? undefined : eq(t.accountId, ref.accountId),
  )!;
}

/** What a live token stands for, without spending it (undefined: unknown, used, expired, void or another's). */
export async function peekToken(db: Queryable, kind: TokenKind, ref: TokenRef, now: Date): Promise<TokenHolder | undefined> {
  const [row] = await db
    .select({ accountId: t.accountId, email: t.email })
    .from(t)
    .where(liveToken(kind, ref, now))
    .limit(1);
  return row;
}

/**
 * Spends a token, once, in one statement: what it stood for, or undefined for an unknown, used,
 * expired, void or other role's (or account's) token. Run it in the transaction that does the
 * token's work, so a failure there leaves the token unspent.
 */
export async function consumeToken(db: Queryable, kind: TokenKind, ref: TokenRef, now: Date): Promise<TokenHolder | undefined> {
  if (!kind.spentByAnyTry) {
    const [claimed] = await db
      .update(t)
      .set({ usedAt: now })
      .where(liveToken(kind, ref, now))
      .returning({ accountId: t.accountId, email: t.email });
    return claimed;
  }
  const [claimed] = await db
    .update(t)
    .set({ usedAt: now })
    .where(and(eq(t.tokenHash, hashToken(ref.token)), eq(t.purpose, kind.purpose), isNull(t.usedAt)))
    .returning({
      accountId: t.accountId,
      email: t.email,
      role: t.role,
      // Judged in the same statement that spends the token.
      live: sql<boolean>`${liveByBothClocks(t.expiresAt, t.createdAt, now, kind.lifetimeMs)}`,
      // Compared with the account of the role asked for; another role's token is refused below anyway.
      bound: sql<boolean>`coalesce(${boundToAccount(ref.role, t.accountVersion, t.accountId)}, false)`,
    });
  if (!claimed || claimed.role !== ref.role || !claimed.live || !claimed.bound) return undefined;
  if (ref.accountId !== undefined && claimed.accountId !== ref.accountId) return undefined;
  return { accountId: claimed.accountId, email: claimed.email };
}

/**
 * Voids the account's unused tokens: of one kind, or of every kind (`'all'`); with `unlessEmail`,
 * those proving that address are kept. A token is void anyway once the account's e-mail, password
 * or verification state changes (the account version); this is for the other cases (a newer link
 * replaces the older ones, a takeover wipes the account).
 */
export async function voidTokens(
  db: Queryable,
  kind: TokenKind | 'all',
  args: { role: Role; accountId: string; now: Date; unlessEmail?: string },
): Promise<void> {
  await db
    .update(t)
    .set({ usedAt: args.now })
    .where(
      and(
        eq(t.role, args.role),
        eq(t.accountId, args.accountId),
        kind === 'all' ? undefined : eq(t.purpose, kind.purpose),
        isNull(t.usedAt),
        args.unlessEmail === undefined ? undefined : ne(t.email, args.unlessEmail),
      ),
    );
}

/** Deletes every token of the account (the account itself is being deleted). */
export async function deleteTokens(db: Queryable, args: { role: Role; accountId: string }): Promise<void> {
  await db.delete(t).where(and(eq(t.role, args.role), eq(t.accountId, args.accountId)));
}

/**
 * Whether the account may be sent another token of `kind` now: 'too-soon' within `minGapMs` of the
 * last one, 'too-many' when `perHour` were issued in the last hour, else 'ok'. Lock the account row
 * first (SELECT … FOR UPDATE) so two simultaneous requests cannot both pass.
 */
export async function issueAllowance(
  db: Queryable,
  kind: TokenKind,
  args: { role: Role; accountId: string; now: Date; minGapMs: number; perHour: number },
): Promise<'ok' | 'too-soon' | 'too-many'> {
  const recent = await db
    .select({ createdAt: t.createdAt })
    .from(t)
    .where(
      and(
        eq(t.role, args.role),
        eq(t.accountId, args.accountId),
        eq(t.purpose, kind.purpose),
        gt(t.createdAt, new Date(args.now.getTime() - 3_600_000)),
      ),
    )
    .orderBy(desc(t.createdAt))
    .limit(args.perHour);
  if (recent[0] && args.now.getTime() - recent[0].createdAt.getTime() < args.minGapMs) return 'too-soon';
  return recent.length >= args.perHour ? 'too-many' : 'ok';
}
