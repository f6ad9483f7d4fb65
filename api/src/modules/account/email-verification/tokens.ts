import { and, desc, eq, isNotNull, ne, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import type { Queryable, Tx } from '../../../adapters/db';
import { qualified } from '../../../db/qualified';
import { accountTables, accountTokens } from '../../../db/schema';
import {
  consumeToken,
  isToken,
  issueToken,
  liveTokens,
  peekToken,
  voidTokens,
  type TokenHolder,
  type TokenKind,
} from '../../../lib/one-time-token';

// The account tables straight from the schema, not profiles/accounts: profiles issues these
// tokens (an e-mail change), so importing it back would make profiles ↔ email-verification a cycle.

/** A verification link works once, for 24 hours. */
export const EMAIL_TOKEN_TTL_MS = 24 * 3_600_000;

/** The verification link's token; a spent one is kept a day after expiry (emailTokenDone). */
export const EMAIL_VERIFY: TokenKind = { purpose: 'email-verify', lifetimeMs: EMAIL_TOKEN_TTL_MS, keepMs: 24 * 3_600_000 };

/** The page of the web app that posts the token back: WEB_ORIGIN/{role}/verify-email/{token}. */
export function verificationLink(webOrigin: string, role: Role, token: string): string {
  return `${webOrigin}/${role}/verify-email/${token}`;
}

/**
 * A new 'email-verify' token proving `email` for the account: the signup address, or a new address
 * asked for in PATCH /{role}/me (the account keeps its old address until this token is used).
 * Returns the token itself, to be mailed to `email`; only its hash is stored. Bound to the account's
 * security version: an e-mail, password or verification change voids it.
 */
export async function issueEmailToken(
  db: Queryable,
  args: { role: Role; accountId: string; email: string; now: Date },
): Promise<string> {
  return issueToken(db, EMAIL_VERIFY, args);
}

/**
 * pendingEmailOf as a subquery on the account's id and e-mail columns, so a profile is read in one
 * statement with it (GET /{role}/me). The same conditions as liveTokens (lib/one-time-token.ts):
 * keep the two in step.
 */
export function pendingEmailSql(
  role: Role,
  accountId: AnyColumn,
  currentEmail: AnyColumn,
  securityVersion: AnyColumn,
  now: Placeholder,
): SQL<string | null> {
  const t = accountTokens;
  return sql<string | null>`(select ${qualified(t.email)} from ${t} where ${qualified(t.role)} = ${role}
    and ${qualified(t.accountId)} = ${qualified(accountId)} and ${qualified(t.purpose)} = 'email-verify'
    and ${qualified(t.usedAt)} is null and ${qualified(t.expiresAt)} > now()
    and ${qualified(t.createdAt)} > ${now}::timestamptz - ${EMAIL_TOKEN_TTL_MS}::float8 * interval '1 millisecond'
    and ${qualified(t.email)} <> ${qualified(currentEmail)}
    and ${qualified(t.accountVersion)} = ${qualified(securityVersion)}
    order by ${qualified(t.createdAt)} desc limit 1)`;
}

/**
 * The new address an account is waiting to confirm: that of its newest live 'email-verify' token
 * (unused, unexpired, still bound) for an address other than its own; null when there is none.
 */
export async function pendingEmailOf(
  db: Queryable,
  args: { role: Role; accountId: string; currentEmail: string; now: Date },
): Promise<string | null> {
  const [row] = await db
    .select({ email: accountTokens.email })
    .from(accountTokens)
    .where(
      and(
        liveTokens(EMAIL_VERIFY, args.role, args.now),
        eq(accountTokens.accountId, args.accountId),
        ne(accountTokens.email, args.currentEmail),
      ),
    )
    .orderBy(desc(accountTokens.createdAt))
    .limit(1);
  return row?.email ?? null;
}

/**
 * A new address asked for replaces any other still waiting: their links die, so only the latest
 * request can take effect (a link to the account's own address, from signup, is left alone).
 */
export async function dropPendingEmailTokens(
  db: Queryable,
  args: { role: Role; accountId: string; currentEmail: string; now: Date },
) {
  await voidTokens(db, EMAIL_VERIFY, {
    role: args.role,
    accountId: args.accountId,
    now: args.now,
    unlessEmail: args.currentEmail,
  });
}

export type EmailTokenOutcome =
  { ok: true; accountId: string; email: string; previousEmail: string } | { ok: false; reason: 'invalid' | 'taken' };

/** The account and address of a live 'email-verify' token, without using it (undefined: none). */
export async function findEmailToken(
  db: Queryable,
  role: Role,
  token: string,
  now: Date,
): Promise<{ accountId: string; email: string } | undefined> {
  return withEmail(await peekToken(db, EMAIL_VERIFY, { role, token }, now));
}

/** Spends a live 'email-verify' token, nothing else (undefined: none): the disown link. */
export async function spendEmailToken(
  db: Queryable,
  role: Role,
  token: string,
  now: Date,
): Promise<{ accountId: string; email: string } | undefined> {
  return withEmail(await consumeToken(db, EMAIL_VERIFY, { role, token }, now));
}

function withEmail(holder: TokenHolder | undefined): { accountId: string; email: string } | undefined {
  return holder?.email ? { accountId: holder.accountId, email: holder.email } : undefined;
}

/**
 * Whether an 'email-verify' token of `role` was spent and its address is now the account's,
 * verified: the link did its work (itself, or a newer link to the same address did), so the page
 * can say so instead of "invalid". Kept for a day after expiry (EMAIL_VERIFY.keepMs).
 */
export async function emailTokenDone(db: Queryable, role: Role, token: string): Promise<boolean> {
  const t = accountTables[role];
  const [row] = await db
    .select({ id: t.id })
    .from(accountTokens)
    .innerJoin(t, eq(t.id, accountTokens.accountId))
    .where(
      and(
        isToken(EMAIL_VERIFY, role, token),
        isNotNull(accountTokens.usedAt),
        eq(t.email, accountTokens.email),
        isNotNull(t.emailVerifiedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Uses an 'email-verify' token, once: the account's e-mail becomes the token's address and is
 * marked verified. 'invalid' for an unknown, used, expired, unbound or other-role token; 'taken' when
 * another account of the role has that address by now (the token is then spent).
 * Run inside the caller's transaction, so the security-log row lands with it.
 */
export async function consumeEmailToken(tx: Tx, role: Role, token: string, now: Date): Promise<EmailTokenOutcome> {
  const claimed = await spendEmailToken(tx, role, token, now);
  if (!claimed) return { ok: false, reason: 'invalid' };
  const t = accountTables[role];
  const [current] = await tx.select({ email: t.email }).from(t).where(eq(t.id, claimed.accountId)).limit(1);
  if (!current) return { ok: false, reason: 'invalid' };
  if (current.email !== claimed.email) {
    const [other] = await tx
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.email, claimed.email), ne(t.id, claimed.accountId)))
      .limit(1);
    if (other) return { ok: false, reason: 'taken' };
  }
  await tx.update(t).set({ email: claimed.email, emailVerifiedAt: now, updatedAt: now }).where(eq(t.id, claimed.accountId));
  // The other links of the account die: an older link must not switch the address back.
  await voidTokens(tx, EMAIL_VERIFY, { role, accountId: claimed.accountId, now });
  return { ok: true, accountId: claimed.accountId, email: claimed.email, previousEmail: current.email };
}
