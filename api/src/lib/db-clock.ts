import { and, gt, sql, type AnyColumn, type SQL } from 'drizzle-orm';

/*
 * Lifetimes (sessions, one-time tokens and codes) are measured by the DATABASE's clock: the
 * expiry is stored as the database's now() + lifetime and compared with its now(). One database
 * clock is shared by every replica, so a process whose clock runs fast or slow neither stretches
 * nor cuts a lifetime. The issuing process's own clock is checked too (created_at is its time):
 * a row is live only while both clocks agree, which also lets tests move time with a ManualClock.
 */

/** The database's now() + `ms`, as the value of an expires_at column. */
export function dbNowPlus(ms: number): SQL<Date> {
  return sql<Date>`now() + ${ms}::float8 * interval '1 millisecond'`;
}

/** The database's now() - `ms`. */
export function dbNowMinus(ms: number): SQL<Date> {
  return sql<Date>`now() - ${ms}::float8 * interval '1 millisecond'`;
}

/** Still live: before its expiry by the database's clock, and younger than its lifetime by the process's (`now`). */
export function liveByBothClocks(expiresAt: AnyColumn, createdAt: AnyColumn, now: Date, lifetimeMs: number): SQL {
  return and(gt(expiresAt, sql`now()`), gt(createdAt, new Date(now.getTime() - lifetimeMs)))!;
}
