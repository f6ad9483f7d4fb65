import { createElement } from 'react';
import { useClinic } from '@careloop/shared-auth';

const OPTIONS: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};
const formats = new Map<string, Intl.DateTimeFormat>();
const formatIn = (timeZone: string | undefined) => {
  const key = timeZone ?? '';
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat('en-GB', { ...OPTIONS, ...(timeZone ? { timeZone } : {}) })));
  return f;
};

/**
 * "24 Nov 2026, 19:30": a moment as a clinician reads it, in the given time zone (the clinic's:
 * useClinicTime) or else the viewer's. The month as a word and a 24-hour clock, whatever the
 * browser's language: 03/12 is never read as 3 December, nor 7:30 as the evening.
 */
export function formatDateTime(at: string | number | Date, timeZone?: string): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? 'unknown time' : formatIn(timeZone).format(d);
}

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
    format: (at: string | number | Date) => formatDateTime(at, timeZone),
  };
}

/** Names the time zone once on a page: "Times are in Europe/London (the clinic's time zone)." */
export function ClinicTimeZoneNote() {
  const { timeZone } = useClinicTime();
  return createElement(
    'p',
    { style: { margin: '0 0 0.5rem', fontSize: '0.85rem', color: '#52606d' } },
    `Times are in ${timeZone} (the clinic's time zone).`,
  );
}
