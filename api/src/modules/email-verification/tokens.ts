import { and, desc, eq, isNotNull, isNull, lt, ne, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import type { Queryable, Tx } from '../../adapters/db';
import { boundToAccount, securityVersionOf } from '../../db/account-version';
import { qualified } from '../../db/qualified';
import { accountTables, accountTokens } from '../../db/schema';
import { dbNowMinus, dbNowPlus, liveByBothClocks } from '../../lib/db-clock';
import { hashToken, newToken } from '../../lib/tokens';

// The account tables straight from the schema, not profiles/accounts: profiles issues these
// tokens (an e-mail change), so importing it back would make profiles ↔ email-verification a cycle.

/** A verification link works once, for 24 hours (issue 11). */
export const EMAIL_TOKEN_TTL_MS = 24 * 3_600_000;

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
  const token = newToken();
  await db.insert(accountTokens).values({
    tokenHash: hashToken(token),
    purpose: 'email-verify',
    role: args.role,
    accountId: args.accountId,
    email: args.email,
    accountVersion: (await securityVersionOf(db, args.role, args.accountId)) ?? null,
    createdAt: args.now,
    expiresAt: dbNowPlus(EMAIL_TOKEN_TTL_MS),
  });
  // Keep the table small: tokens dead for a day are of no use to anyone.
  await db.delete(accountTokens).where(lt(accountTokens.expiresAt, dbNowMinus(86_400_000)));
  return token;
}

/**
 * pendingEmailOf as a subquery on the account's id and e-mail columns, so a profile is read in one
 * statement with it (GET /{role}/me). The same conditions: keep the two in step.
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
        eq(accountTokens.role, args.role),
        eq(accountTokens.accountId, args.accountId),
        eq(accountTokens.purpose, 'email-verify'),
        isNull(accountTokens.usedAt),
        liveByBothClocks(accountTokens.expiresAt, accountTokens.createdAt, args.now, EMAIL_TOKEN_TTL_MS),
        ne(accountTokens.email, args.currentEmail),
        boundToAccount(args.role, accountTokens.accountVersion, accountTokens.accountId),
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
  await db
    .update(accountTokens)
    .set({ usedAt: args.now })
    .where(
      and(
        eq(accountTokens.role, args.role),
        eq(accountTokens.accountId, args.accountId),
        eq(accountTokens.purpose, 'email-verify'),
        isNull(accountTokens.usedAt),
        ne(accountTokens.email, args.currentEmail),
      ),
    );
}

export type EmailTokenOutcome =
  { ok: true; accountId: string; email: string; previousEmail: string } | { ok: false; reason: 'invalid' | 'taken' };

/** An 'email-verify' token of `role` that can still be used: unused, unexpired, bound to the account as it is. */
export function liveEmailToken(role: Role, token: string, now: Date): SQL | undefined {
  return and(
    eq(accountTokens.tokenHash, hashToken(token)),
    eq(accountTokens.role, role),
    eq(accountTokens.purpose, 'email-verify'),
    isNull(accountTokens.usedAt),
    liveByBothClocks(accountTokens.expiresAt, accountTokens.createdAt, now, EMAIL_TOKEN_TTL_MS),
    boundToAccount(role, accountTokens.accountVersion, accountTokens.accountId),
  );
}

/** The account and address of a live 'email-verify' token, without using it (undefined: none). */
export async function findEmailToken(
  db: Queryable,
  role: Role,
  token: string,
  now: Date,
): Promise<{ accountId: string; email: string } | undefined> {
  const [row] = await db
    .select({ accountId: accountTokens.accountId, email: accountTokens.email })
    .from(accountTokens)
    .where(liveEmailToken(role, token, now))
    .limit(1);
  return row?.email ? { accountId: row.accountId, email: row.email } : undefined;
}

/**
 * Whether an 'email-verify' token of `role` was spent and its address is now the account's,
 * verified: the link did its work (itself, or a newer link to the same address did), so the page
 * can say so instead of "invalid". Kept for a day after expiry (issueEmailToken's clean-up).
 */
export async function emailTokenDone(db: Queryable, role: Role, token: string): Promise<boolean> {
  const t = accountTables[role];
  const [row] = await db
    .select({ id: t.id })
    .from(accountTokens)
    .innerJoin(t, eq(t.id, accountTokens.accountId))
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.role, role),
        eq(accountTokens.purpose, 'email-verify'),
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
  const [claimed] = await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(liveEmailToken(role, token, now))
    .returning({ accountId: accountTokens.accountId, email: accountTokens.email });
  if (!claimed?.email) return { ok: false, reason: 'invalid' };
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
  await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.role, role),
        eq(accountTokens.accountId, claimed.accountId),
        eq(accountTokens.purpose, 'email-verify'),
        isNull(accountTokens.usedAt),
      ),
    );
  return { ok: true, accountId: claimed.accountId, email: claimed.email, previousEmail: current.email };
}
