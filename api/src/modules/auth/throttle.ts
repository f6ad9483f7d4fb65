import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Role } from 'shared-contracts';
import type { Queryable } from '../../adapters/db';
import { loginFailures } from '../../db/schema';

// Per-account brute-force protection, shared by every replica through the database.
// (The per-IP limit is @fastify/rate-limit on the login routes.)
export const MAX_CONSECUTIVE_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60_000;
const FORGET_AFTER_MS = 24 * 3_600_000;

/** The end of the current lockout for this e-mail, or undefined when it may try. */
export async function lockedUntil(db: Queryable, role: Role, email: string, now: Date): Promise<Date | undefined> {
  const [row] = await db
    .select({ lockedUntil: loginFailures.lockedUntil })
    .from(loginFailures)
    .where(and(eq(loginFailures.role, role), eq(loginFailures.email, email), gt(loginFailures.lockedUntil, now)))
    .limit(1);
  return row?.lockedUntil ?? undefined;
}

/** Counts one more consecutive failure in a single atomic statement; the 5th locks for 15 minutes. */
export async function recordFailure(db: Queryable, role: Role, email: string, now: Date): Promise<void> {
  const nowTs = sql`${now.toISOString()}::timestamptz`;
  const until = sql`${new Date(now.getTime() + LOCKOUT_MS).toISOString()}::timestamptz`;
  // A lockout that has run out starts a fresh count.
  const next = sql`(case when ${loginFailures.lockedUntil} is not null and ${loginFailures.lockedUntil} <= ${nowTs}
    then 1 else ${loginFailures.failures} + 1 end)`;
  await db
    .insert(loginFailures)
    .values({
      role,
      email,
      failures: 1,
      lockedUntil: MAX_CONSECUTIVE_FAILURES <= 1 ? new Date(now.getTime() + LOCKOUT_MS) : null,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [loginFailures.role, loginFailures.email],
      set: {
        failures: next,
        lockedUntil: sql`case when ${next} >= ${MAX_CONSECUTIVE_FAILURES} then ${until} else null end`,
        updatedAt: now,
      },
    });
  // Keyed by any e-mail typed, so forget old counts that never led to a lockout in force.
  const forgetBefore = new Date(now.getTime() - FORGET_AFTER_MS);
  await db
    .delete(loginFailures)
    .where(
      and(lt(loginFailures.updatedAt, forgetBefore), or(isNull(loginFailures.lockedUntil), lt(loginFailures.lockedUntil, now))),
    );
}

/** A successful login ends the streak of failures. */
export async function clearFailures(db: Queryable, role: Role, email: string): Promise<void> {
  await db.delete(loginFailures).where(and(eq(loginFailures.role, role), eq(loginFailures.email, email)));
}
