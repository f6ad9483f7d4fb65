/**
 * The one way a person reads a date in CareLoop, on screen, in e-mails and in the PDF: a calendar
 * date "12 Mar 1985", a moment "27 Nov 2026, 19:30" (in the clinic's time zone, named once where
 * it is shown). The month as a word and a 24-hour clock whatever the reader's language, so 03/12
 * is never read as 3 December, nor 7:30 as the evening. Pure: the web and the api share it.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "YYYY-MM-DD": a calendar date, the same day in every time zone. */
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** "YYYY-MM-DDTHH:MM[:SS]" with no zone: a wall-clock time already in the clinic's zone (a record's observation time). */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;

export const UNKNOWN_DATE = 'unknown date';
export const UNKNOWN_TIME = 'unknown time';

const dayText = (y: number, m: number, d: number) =>
  m >= 1 && m <= 12 && d >= 1 && d <= 31 ? `${d} ${MONTHS[m - 1]} ${y}` : undefined;

const formats = new Map<string, Intl.DateTimeFormat>();
/** Numbers only (en-US), composed below: a locale's own month words change between ICU versions ("Sept"). */
function partsIn(at: Date, timeZone: string | undefined) {
  const key = timeZone ?? '';
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    formats.set(key, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    y: Number(parts.year),
    m: Number(parts.month),
    d: Number(parts.day),
    time: `${parts.hour.padStart(2, '0')}:${parts.minute.padStart(2, '0')}`,
  };
}

const asDate = (at: string | number | Date) => {
  const d = at instanceof Date ? at : new Date(at);
  return Number.isNaN(d.getTime()) ? undefined : d;
};

/**
 * "12 Mar 1985": a calendar date. A "YYYY-MM-DD" string is written from its text, never through
 * Date, so no time zone moves a birthday by a day; a moment gives its date in `timeZone` (the
 * clinic's), else the reader's. Anything unreadable is "unknown date", never "Invalid Date".
 */
export function formatDate(at: string | number | Date | null | undefined, timeZone?: string): string {
  if (at === null || at === undefined || at === '') return UNKNOWN_DATE;
  if (typeof at === 'string') {
    const text = at.trim();
    const m = CALENDAR_DATE.exec(text) ?? WALL_TIME.exec(text);
    if (m) return dayText(Number(m[1]), Number(m[2]), Number(m[3])) ?? UNKNOWN_DATE;
  }
  const d = asDate(at);
  if (!d) return UNKNOWN_DATE;
  const p = partsIn(d, timeZone);
  return dayText(p.y, p.m, p.d) ?? UNKNOWN_DATE;
}

/**
 * "27 Nov 2026, 19:30": a moment in `timeZone` (the clinic's), else the reader's. A wall-clock
 * "YYYY-MM-DDTHH:MM" with no zone is already the clinic's time and is written from its text; a
 * bare calendar date gives just the date. Anything unreadable is "unknown time".
 */
export function formatDateTime(at: string | number | Date | null | undefined, timeZone?: string): string {
  if (at === null || at === undefined || at === '') return UNKNOWN_TIME;
  if (typeof at === 'string') {
    const text = at.trim();
    const wall = WALL_TIME.exec(text);
    if (wall) {
      const day = dayText(Number(wall[1]), Number(wall[2]), Number(wall[3]));
      return day ? `${day}, ${wall[4]}:${wall[5]}` : UNKNOWN_TIME;
    }
    const date = CALENDAR_DATE.exec(text);
    if (date) return dayText(Number(date[1]), Number(date[2]), Number(date[3])) ?? UNKNOWN_TIME;
  }
  const d = asDate(at);
  if (!d) return UNKNOWN_TIME;
  const p = partsIn(d, timeZone);
  const day = dayText(p.y, p.m, p.d);
  return day ? `${day}, ${p.time}` : UNKNOWN_TIME;
}

/** "Times are in Europe/London (the clinic's time zone).": the zone named once where times are shown. */
export const timeZoneNote = (timeZone: string) => `Times are in ${timeZone} (the clinic's time zone).`;
