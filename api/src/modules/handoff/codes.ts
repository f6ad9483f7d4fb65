import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import type { Queryable, Tx } from '../../adapters/db';
import { boundToAccount, securityVersionOf } from '../../db/account-version';
import { accountTokens } from '../../db/schema';
import { dbNowPlus, liveByBothClocks } from '../../lib/db-clock';
import { hashToken, newToken } from '../../lib/tokens';

/**
 * A hand-off code lives 60 seconds: long enough for the browser to follow the redirect and post it
 * back, short enough that a code left in a history entry or a proxy log is dead (issue 11).
 */
export const HANDOFF_TTL_MS = 60_000;

/**
 * A new one-time code standing for a sign-in of the account; only its hash is stored. Bound to the
 * account's security version: a password, e-mail or verification change in the meantime voids it.
 */
export async function issueHandoffCode(db: Queryable, role: Role, accountId: string, now: Date): Promise<string> {
  const code = newToken();
  // Dead codes are of no use to anyone: keep the table small.
  await db.delete(accountTokens).where(and(eq(accountTokens.purpose, 'handoff'), lt(accountTokens.expiresAt, sql`now()`)));
  await db.insert(accountTokens).values({
    tokenHash: hashToken(code),
    purpose: 'handoff',
    role,
    accountId,
    accountVersion: (await securityVersionOf(db, role, accountId)) ?? null,
    createdAt: now,
    expiresAt: dbNowPlus(HANDOFF_TTL_MS),
  });
  return code;
}

/**
 * Spends a hand-off code, once: the single UPDATE … WHERE used_at IS NULL lets only one of two
 * racing requests claim it. Any attempt spends it, even for the wrong role: a code is tried once.
 * The account id, or undefined for an unknown, used, expired, unbound or other-role value (a session token
 * or an e-mail link is not a code).
 */
export async function consumeHandoffCode(tx: Tx, role: Role, code: string, now: Date): Promise<string | undefined> {
  const [claimed] = await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.tokenHash, hashToken(code)), eq(accountTokens.purpose, 'handoff'), isNull(accountTokens.usedAt)))
    .returning({
      accountId: accountTokens.accountId,
      role: accountTokens.role,
      // Judged by both clocks (lib/db-clock.ts) in the same statement that spends the code.
      live: sql<boolean>`${liveByBothClocks(accountTokens.expiresAt, accountTokens.createdAt, now, HANDOFF_TTL_MS)}`,
      // Compared with the account of the role asked for; another role's code is refused below anyway.
      bound: sql<boolean>`coalesce(${boundToAccount(role, accountTokens.accountVersion, accountTokens.accountId)}, false)`,
    });
  if (!claimed || claimed.role !== role || !claimed.live || !claimed.bound) return undefined;
  return claimed.accountId;
}
