/*
 * When a reminder's occurrences fall, and how failed sends are retried. Pure functions, so the
 * rules are tested without a database.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The latest occurrence at or before `now` (intervalDays 0: the start itself). Occurrences are
 * start + k × intervalDays × 24 h: fixed UTC steps, so across a daylight-saving change the local
 * wall-clock time of the e-mail moves by an hour.
 */
export function latestOccurrence(startAt: Date, intervalDays: number, now: Date): Date {
  if (intervalDays === 0 || now.getTime() <= startAt.getTime()) return startAt;
  const step = intervalDays * DAY_MS;
  const k = Math.floor((now.getTime() - startAt.getTime()) / step);
  return new Date(startAt.getTime() + k * step);
}

/** The occurrence after `occurrence`, or null for a one-off reminder. */
export function nextOccurrence(occurrence: Date, intervalDays: number): Date | null {
  return intervalDays === 0 ? null : new Date(occurrence.getTime() + intervalDays * DAY_MS);
}

export const RETRY_BASE_MS = 60 * 1000;
export const RETRY_CAP_MS = 60 * 60 * 1000;

/** Wait before attempt n+1 after n failed attempts: 1 min, 2, 4, 8 … capped at 1 hour. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1));
}
