import { and, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { TWO_FACTOR_OFF } from '../../../db/two-factor-off';
import type { Role } from '@careloop/shared-contracts';
import type { Queryable } from '../../../adapters/db';
import { doctors } from '../../../db/schema';
import { accountTables } from '../../profiles/accounts';

// Two-factor state lives on the account rows; every change that must not race (replay, failure
// counting, the login window) is a single conditional UPDATE, so replicas agree without locks.

export const MAX_CODE_FAILURES = 5;
export const CODE_FAILURE_WINDOW_MS = 15 * 60_000;
export const LOGIN_WINDOW_MS = 5 * 60_000;

/** Both account tables carry the same two-factor columns; typed as one of them for Drizzle. */
function table(role: Role) {
  return accountTables[role] as unknown as typeof doctors;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Additional authenticated data for the sealed secrets: a ciphertext only opens on its own row. */
export function secretContext(role: Role, accountId: string): string {
  return `${role}:${accountId}:totp`;
}

export interface TwoFactorRow {
  id: string;
  email: string;
  enabled: boolean;
  secret: string | null;
  pendingSecret: string | null;
  lastStep: number | null;
  lockedUntil: Date | null;
  loginUntil: Date | null;
}

export async function loadTwoFactor(db: Queryable, role: Role, accountId: string): Promise<TwoFactorRow | undefined> {
  const t = table(role);
  const [row] = await db
    .select({
      id: t.id,
      email: t.email,
      enabled: t.twoFactorEnabled,
      secret: t.twoFactorSecret,
      pendingSecret: t.twoFactorPendingSecret,
      lastStep: t.twoFactorLastStep,
      lockedUntil: t.twoFactorLockedUntil,
      loginUntil: t.twoFactorLoginUntil,
    })
    .from(t)
    .where(eq(t.id, accountId))
    .limit(1);
  return row;
}

export async function setPendingSecret(db: Queryable, role: Role, accountId: string, sealed: string, now: Date) {
  const t = table(role);
  await db.update(t).set({ twoFactorPendingSecret: sealed, updatedAt: now }).where(eq(t.id, accountId));
}

/**
 * Counts this attempt before the code is checked, in one statement, so parallel guesses cannot all
 * slip past the limit. Returns the attempt's number in the current window, or undefined while the
 * account is locked. A success then clears the count (clearAttempts).
 */
export async function reserveAttempt(db: Queryable, role: Role, accountId: string, now: Date): Promise<number | undefined> {
  const t = table(role);
  const fresh = sql`(${t.twoFactorFailuresSince} is null
    or ${t.twoFactorFailuresSince} <= ${ts(new Date(now.getTime() - CODE_FAILURE_WINDOW_MS))}
    or (${t.twoFactorLockedUntil} is not null and ${t.twoFactorLockedUntil} <= ${ts(now)}))`;
  const [row] = await db
    .update(t)
    .set({
      twoFactorFailures: sql`case when ${fresh} then 1 else ${t.twoFactorFailures} + 1 end`,
      twoFactorFailuresSince: sql`case when ${fresh} then ${ts(now)} else ${t.twoFactorFailuresSince} end`,
      twoFactorLockedUntil: sql`case when ${fresh} then null else ${t.twoFactorLockedUntil} end`,
    })
    .where(and(eq(t.id, accountId), or(isNull(t.twoFactorLockedUntil), lte(t.twoFactorLockedUntil, now))))
    .returning({ n: t.twoFactorFailures });
  if (!row) return undefined;
  if (row.n > MAX_CODE_FAILURES) {
    await lock(db, role, accountId, now);
    return undefined;
  }
  return row.n;
}

/** A failed code: the attempt was already counted; the 5th failure in the window locks. */
export async function recordFailedAttempt(db: Queryable, role: Role, accountId: string, attempt: number, now: Date) {
  if (attempt >= MAX_CODE_FAILURES) await lock(db, role, accountId, now);
}

async function lock(db: Queryable, role: Role, accountId: string, now: Date) {
  const t = table(role);
  await db
    .update(t)
    .set({ twoFactorLockedUntil: new Date(now.getTime() + CODE_FAILURE_WINDOW_MS) })
    .where(and(eq(t.id, accountId), or(isNull(t.twoFactorLockedUntil), lte(t.twoFactorLockedUntil, now))));
}

const cleared = { twoFactorFailures: 0, twoFactorFailuresSince: null, twoFactorLockedUntil: null };

/** The end of the lockout in force, if any (for the 429 message). */
export async function lockedUntil(db: Queryable, role: Role, accountId: string): Promise<Date | undefined> {
  const row = await loadTwoFactor(db, role, accountId);
  return row?.lockedUntil ?? undefined;
}

/**
 * The pending secret becomes the secret and two-factor goes on — only if the pending secret is
 * still the one the code was checked against (a new QR code in between wins).
 */
export async function promotePending(
  db: Queryable,
  role: Role,
  accountId: string,
  sealedPending: string,
  step: number,
  now: Date,
) {
  const t = table(role);
  const rows = await db
    .update(t)
    .set({
      twoFactorEnabled: true,
      twoFactorSecret: sealedPending,
      twoFactorPendingSecret: null,
      twoFactorLastStep: step,
      twoFactorLoginUntil: null,
      ...cleared,
      updatedAt: now,
    })
    .where(and(eq(t.id, accountId), eq(t.twoFactorPendingSecret, sealedPending)))
    .returning({ id: t.id });
  return rows.length === 1;
}

/**
 * Accepts a code of the enabled secret at `step` only if no code of this or a later step was
 * accepted before (RFC 6238 §5.2: no replay). With `closeLogin`, the pending-login window must be
 * open and is closed by the same statement.
 */
export async function acceptStep(
  db: Queryable,
  role: Role,
  accountId: string,
  sealedSecret: string,
  step: number,
  now: Date,
  closeLogin: boolean,
) {
  const t = table(role);
  const rows = await db
    .update(t)
    .set({ twoFactorLastStep: step, ...cleared, ...(closeLogin ? { twoFactorLoginUntil: null } : {}) })
    .where(
      and(
        eq(t.id, accountId),
        eq(t.twoFactorEnabled, true),
        eq(t.twoFactorSecret, sealedSecret),
        or(isNull(t.twoFactorLastStep), lt(t.twoFactorLastStep, step)),
        closeLogin ? gt(t.twoFactorLoginUntil, now) : undefined,
      ),
    )
    .returning({ id: t.id });
  return rows.length === 1;
}

/**
 * Closes an open login window (a recovery code is accepted in its place) and clears the failure
 * count; false when the window was not open (expired, or used by a parallel request).
 */
export async function closeLoginWindow(db: Queryable, role: Role, accountId: string, now: Date) {
  const t = table(role);
  const rows = await db
    .update(t)
    .set({ twoFactorLoginUntil: null, ...cleared })
    .where(and(eq(t.id, accountId), eq(t.twoFactorEnabled, true), gt(t.twoFactorLoginUntil, now)))
    .returning({ id: t.id });
  return rows.length === 1;
}

/** After a right password with two-factor on: the code step is open for 5 minutes. */
export async function openLoginWindow(db: Queryable, role: Role, accountId: string, now: Date) {
  const t = table(role);
  await db
    .update(t)
    .set({ twoFactorLoginUntil: new Date(now.getTime() + LOGIN_WINDOW_MS) })
    .where(eq(t.id, accountId));
}

export async function disableTwoFactor(db: Queryable, role: Role, accountId: string, now: Date) {
  const t = table(role);
  await db
    .update(t)
    .set({ ...TWO_FACTOR_OFF, updatedAt: now })
    .where(eq(t.id, accountId));
}
