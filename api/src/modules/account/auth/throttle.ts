import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import type { Queryable } from '../../../adapters/db';
import { loginFailures } from '../../../db/schema';
import { HttpError } from '../../../lib/errors';

/*
 * Login throttling that an attacker cannot turn against the owner (issue 11 item 5). All counts
 * live in login_failures, so every replica shares them.
 *
 * 1. Per (role, e-mail typed, client address): 5 consecutive failures lock THAT PAIR for 15
 *    minutes. Another address is not affected, so 5 wrong passwords from anywhere no longer lock
 *    the owner out. A success clears only its own pair (clearing the others would unlock the
 *    attacker's addresses).
 * 2. Per account (role, e-mail; the row whose client is ACCOUNT_WIDE): every failure from any
 *    address is counted; the count is forgotten after an hour without failures. From
 *    `slowdownAfter` failures on (LOGIN_SLOWDOWN_AFTER, default 20) the account is paced: one
 *    attempt per delay, across all addresses, the delay doubling per further failure from 1 s up
 *    to 5 minutes. A slot is claimed atomically before the password is checked, so parallel
 *    requests and replicas cannot share one slot. Others get 429 with Retry-After.
 *    Bound: a guesser with any number of addresses gets ~20 guesses, ~9 while the delay grows,
 *    then 12 an hour (tested in throttle.test.ts).
 * 3. Who is not paced: an address the account has signed in from in the last 30 days (from the
 *    security log), still limited by its own pair lock, so it has a few tries. A never-seen
 *    address cannot be told apart from a botnet's next address: letting every new address try
 *    would make the bound grow with the botnet. An owner on a new address during an attack
 *    waits for a slot, or resets the password by mail, which clears every count (reset routes).
 *
 * Unknown e-mails are counted and paced the same way: a 429 never tells whether an account exists.
 */
export const MAX_CONSECUTIVE_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60_000;
/** The `client` of the per-account row; no request address is ever `*`. */
export const ACCOUNT_WIDE = '*';
/** The per-account count is forgotten after this long without a failure. */
export const SLOWDOWN_QUIET_MS = 60 * 60_000;
export const SLOWDOWN_MAX_DELAY_MS = 5 * 60_000;
/** Addresses the account signed in from this recently are not paced (they keep their pair lock). */
export const KNOWN_CLIENT_MS = 30 * 24 * 3_600_000;
const FORGET_AFTER_MS = 24 * 3_600_000;

/** The pause after the `failures`-th failure once pacing has started (1 s, doubling, capped). */
export function slowdownDelayMs(failures: number, slowdownAfter: number): number {
  if (failures < slowdownAfter) return 0;
  return Math.min(SLOWDOWN_MAX_DELAY_MS, 1000 * 2 ** Math.min(failures - slowdownAfter, 30));
}

export interface LoginAttempt {
  role: Role;
  email: string;
  client: string;
  now: Date;
  slowdownAfter: number;
}

export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

/** The end of this address's lockout for this e-mail, or undefined when it may try. */
export async function pairLockedUntil(db: Queryable, a: Omit<LoginAttempt, 'slowdownAfter'>): Promise<Date | undefined> {
  const [row] = await db
    .select({ lockedUntil: loginFailures.lockedUntil })
    .from(loginFailures)
    .where(
      and(
        eq(loginFailures.role, a.role),
        eq(loginFailures.email, a.email),
        eq(loginFailures.client, a.client),
        gt(loginFailures.lockedUntil, a.now),
      ),
    )
    .limit(1);
  return row?.lockedUntil ?? undefined;
}

/**
 * The per-account pace: lets the attempt through, or claims the account's next slot for it, or
 * answers how long to wait. `knownClient` is asked only while the account is paced.
 */
export async function admitToAccount(db: Queryable, a: LoginAttempt, knownClient: () => Promise<boolean>): Promise<Admission> {
  const account = and(eq(loginFailures.role, a.role), eq(loginFailures.email, a.email), eq(loginFailures.client, ACCOUNT_WIDE));
  const [row] = await db
    .select({ failures: loginFailures.failures, updatedAt: loginFailures.updatedAt, lockedUntil: loginFailures.lockedUntil })
    .from(loginFailures)
    .where(account)
    .limit(1);
  const quiet = !row || row.updatedAt.getTime() <= a.now.getTime() - SLOWDOWN_QUIET_MS;
  if (quiet || row.failures < a.slowdownAfter) return { ok: true };
  if (await knownClient()) return { ok: true };
  // Claim the slot: only one attempt per delay, whichever replica serves it.
  const nextSlot = new Date(a.now.getTime() + slowdownDelayMs(row.failures, a.slowdownAfter));
  const [claimed] = await db
    .update(loginFailures)
    .set({ lockedUntil: nextSlot })
    .where(
      and(
        account,
        or(isNull(loginFailures.lockedUntil), sql`${loginFailures.lockedUntil} <= ${a.now.toISOString()}::timestamptz`),
      ),
    )
    .returning({ failures: loginFailures.failures });
  if (claimed) return { ok: true };
  const [current] = await db.select({ lockedUntil: loginFailures.lockedUntil }).from(loginFailures).where(account).limit(1);
  const until = current?.lockedUntil?.getTime() ?? a.now.getTime() + 1000;
  return { ok: false, retryAfterMs: Math.max(1000, until - a.now.getTime()) };
}

/**
 * Counts one failure for the pair (the 5th in a row locks it for 15 minutes) and for the account
 * (pacing from `slowdownAfter` on). Each is one atomic upsert; pass a transaction to make them one.
 */
export async function recordFailure(db: Queryable, a: LoginAttempt): Promise<void> {
  const { role, email, client, now } = a;
  const nowTs = sql`${now.toISOString()}::timestamptz`;
  const until = sql`${new Date(now.getTime() + LOCKOUT_MS).toISOString()}::timestamptz`;
  // A pair lockout that has run out starts a fresh count.
  const next = sql`(case when ${loginFailures.lockedUntil} is not null and ${loginFailures.lockedUntil} <= ${nowTs}
    then 1 else ${loginFailures.failures} + 1 end)`;
  await db
    .insert(loginFailures)
    .values({
      role,
      email,
      client,
      failures: 1,
      lockedUntil: MAX_CONSECUTIVE_FAILURES <= 1 ? new Date(now.getTime() + LOCKOUT_MS) : null,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [loginFailures.role, loginFailures.email, loginFailures.client],
      set: {
        failures: next,
        lockedUntil: sql`case when ${next} >= ${MAX_CONSECUTIVE_FAILURES} then ${until} else null end`,
        updatedAt: now,
      },
    });

  // The account's count: forgotten after an hour of quiet; from the threshold on, the next slot
  // is pushed out by the delay (never pulled in: a claimed slot stays claimed).
  const quietSince = sql`${new Date(now.getTime() - SLOWDOWN_QUIET_MS).toISOString()}::timestamptz`;
  const accountNext = sql`(case when ${loginFailures.updatedAt} <= ${quietSince} then 1 else ${loginFailures.failures} + 1 end)`;
  const after = a.slowdownAfter;
  const delayMs = sql`least(${SLOWDOWN_MAX_DELAY_MS}, 1000 * power(2, least(${accountNext} - ${after}, 30)))`;
  const slot = sql`${nowTs} + (${delayMs}) * interval '1 millisecond'`;
  await db
    .insert(loginFailures)
    .values({
      role,
      email,
      client: ACCOUNT_WIDE,
      failures: 1,
      lockedUntil: after <= 1 ? new Date(now.getTime() + slowdownDelayMs(1, after)) : null,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [loginFailures.role, loginFailures.email, loginFailures.client],
      set: {
        failures: accountNext,
        lockedUntil: sql`case when ${accountNext} >= ${after}
          then greatest(coalesce(${loginFailures.lockedUntil}, ${nowTs}), ${slot}) else null end`,
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

/**
 * A successful login ends its own address's streak only: the per-account count and the other
 * addresses' locks stay, or every owner sign-in would hand a guesser a fresh budget.
 */
export async function clearPairFailures(db: Queryable, role: Role, email: string, client: string): Promise<void> {
  await db
    .delete(loginFailures)
    .where(and(eq(loginFailures.role, role), eq(loginFailures.email, email), eq(loginFailures.client, client)));
}

/** A password reset makes every earlier guess moot: every count for the e-mail goes. */
export async function clearFailures(db: Queryable, role: Role, email: string): Promise<void> {
  await db.delete(loginFailures).where(and(eq(loginFailures.role, role), eq(loginFailures.email, email)));
}

/** The 429 of a locked or slowed sign-in or re-authentication: "Try again in 45 seconds" / "in 15 minutes". */
export function tooManyAttempts(retryAfterMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  const wait = seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return new HttpError(429, `Too many failed attempts. Try again in ${wait}.`, seconds);
}
