/*
 * When a reminder's occurrences fall, and how failed sends are retried. Pure functions (the time
 * zone is a parameter), so the rules are tested without a database.
 */

import { instantOfWallTime, wallTimeOf } from '../clinical/age';

export const DAY_MS = 24 * 60 * 60 * 1000;

/*
 * Occurrences keep their local time in the clinic's time zone: occurrence k of a reminder every n
 * days is (the local calendar date of startAt + k × n days) at startAt's local wall-clock time,
 * converted to an instant. So a daily 09:00 London reminder stays 09:00 across daylight-saving
 * changes (fixed 24-hour steps would make it 10:00 in summer). Occurrence 0 is startAt itself.
 * - gap (a local time that does not exist, spring forward): moved forward by the length of the
 *   gap, as a clock not yet put forward would read it: 02:30 Europe/Berlin on the March
 *   change day (clocks jump 02:00 → 03:00) is sent at 03:30 CEST;
 * - overlap (a local time that happens twice, fall back): the earlier instant, so it is sent once.
 */

/** Occurrence k (k ≥ 1) of a reminder every intervalDays days from startAt, in the zone. */
function occurrenceAt(startAt: Date, intervalDays: number, k: number, timeZone: string): Date {
  const startWall = wallTimeOf(startAt.getTime(), timeZone);
  // Whole days on the wall clock: the local date moves by k × n, the local time stays.
  return instantOfWallTime(startWall + k * intervalDays * DAY_MS, timeZone);
}

/** The index of the latest occurrence at or before `at` (0 when `at` is not after the start). */
function latestIndex(startAt: Date, intervalDays: number, at: Date, timeZone: string): number {
  if (at.getTime() <= startAt.getTime()) return 0;
  // Estimate with 24-hour days, then correct: offsets move the answer by at most a step.
  let k = Math.floor((at.getTime() - startAt.getTime()) / (intervalDays * DAY_MS));
  while (occurrenceAt(startAt, intervalDays, k + 1, timeZone).getTime() <= at.getTime()) k += 1;
  while (k > 0 && occurrenceAt(startAt, intervalDays, k, timeZone).getTime() > at.getTime()) k -= 1;
  return k;
}

const occurrence = (startAt: Date, intervalDays: number, k: number, timeZone: string) =>
  k === 0 ? startAt : occurrenceAt(startAt, intervalDays, k, timeZone);

/**
 * The latest occurrence at or before `now` (intervalDays 0: the start itself), occurrences kept at
 * startAt's local time in `timeZone` (the clinic's).
 */
export function latestOccurrence(startAt: Date, intervalDays: number, now: Date, timeZone: string): Date {
  if (intervalDays === 0) return startAt;
  return occurrence(startAt, intervalDays, latestIndex(startAt, intervalDays, now, timeZone), timeZone);
}

/** The first occurrence after `after` (an occurrence, usually), or null for a one-off reminder. */
export function nextOccurrence(startAt: Date, intervalDays: number, after: Date, timeZone: string): Date | null {
  if (intervalDays === 0) return null;
  if (after.getTime() < startAt.getTime()) return startAt;
  return occurrenceAt(startAt, intervalDays, latestIndex(startAt, intervalDays, after, timeZone) + 1, timeZone);
}

export const RETRY_BASE_MS = 60 * 1000;
export const RETRY_CAP_MS = 60 * 60 * 1000;

/** Wait before attempt n+1 after n failed attempts: 1 min, 2, 4, 8 … capped at 1 hour. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1));
}
