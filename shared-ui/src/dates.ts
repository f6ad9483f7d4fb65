const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * "24 Nov 2026, 19:30": a moment as a clinician reads it, in the viewer's own time zone. The month
 * as a word and a 24-hour clock, whatever the browser's language: 03/12 is never read as 3 December,
 * nor 7:30 as the evening (the browser default wrote "11/24/2026, 7:30:00 PM" here).
 */
export function formatDateTime(at: string | number | Date): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? 'unknown time' : DATE_TIME.format(d);
}
