import { createElement } from 'react';
import { formatDate, formatDateTime, timeZoneNote } from '@careloop/shared-contracts';
import { useClinic } from '@careloop/shared-auth';

// The one date format (shared-contracts dates.ts), the same the api's e-mails and PDF write.
export { formatDate, formatDateTime };

/**
 * Times as the clinic reads them: every clinical time on screen is in the clinic's time zone
 * (CLINIC_TIME_ZONE, from GET /clinic), so a doctor travelling and the clinic's notes agree.
 * Until the zone is known, the viewer's own is used and named.
 */
export function useClinicTime() {
  const clinic = useClinic();
  const timeZone = clinic.data?.timeZone;
  return {
    timeZone: timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    /** "27 Nov 2026, 19:30" in the clinic's zone */
    format: (at: string | number | Date) => formatDateTime(at, timeZone),
    /** "27 Nov 2026": the clinic's calendar day of a moment; a "YYYY-MM-DD" date as written */
    formatDate: (at: string | number | Date) => formatDate(at, timeZone),
  };
}

/** Names the time zone once on a page: "Times are in Europe/London (the clinic's time zone)." */
export function ClinicTimeZoneNote() {
  const { timeZone } = useClinicTime();
  return createElement('p', { style: { margin: '0 0 0.5rem', fontSize: '0.85rem', color: '#52606d' } }, timeZoneNote(timeZone));
}

// Made on first use: building an Intl formatter loads locale data, a cost no page should pay on import.
let relative: Intl.RelativeTimeFormat | undefined;
const relativeFormat = () => (relative ??= new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' }));
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "2 hours ago", "yesterday", "just now": how long ago a moment was, for what the person left unfinished. */
export function timeAgo(at: string | number | Date, now: number = Date.now()): string {
  const elapsed = now - new Date(at).getTime();
  for (const [unit, ms] of UNITS) if (elapsed >= ms) return relativeFormat().format(-Math.floor(elapsed / ms), unit);
  return 'just now';
}
