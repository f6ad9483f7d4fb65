/*
 * Age on a calendar date, as { years, months, days }: whole months are counted first (a month
 * added to the 31st lands on the last day of a shorter month), then the remaining days — the
 * same arithmetic as java.time.Period.between. Dates are 'YYYY-MM-DD' strings, read as calendar
 * days (no time zone involved).
 */

export interface Age {
  years: number;
  months: number;
  days: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface Ymd {
  y: number;
  m: number; // 1–12
  d: number;
}

function parse(text: string): Ymd | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return undefined;
  return { y, m, d };
}

export function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const epochDay = ({ y, m, d }: Ymd) => Date.UTC(y, m - 1, d) / 86_400_000;

function plusMonths(date: Ymd, months: number): Ymd {
  const total = date.y * 12 + (date.m - 1) + months;
  const y = Math.floor(total / 12);
  const m = (total % 12) + 1;
  return { y, m, d: Math.min(date.d, daysInMonth(y, m)) };
}

/** The age on `on` of someone born on `dob`; null when either date is missing or invalid, or dob is later. */
export function ageOn(dob: string | null | undefined, on: string): Age | null {
  const birth = dob ? parse(dob) : undefined;
  const day = parse(on);
  if (!birth || !day || epochDay(birth) > epochDay(day)) return null;
  let months = day.y * 12 + day.m - (birth.y * 12 + birth.m);
  let days = day.d - birth.d;
  if (months > 0 && days < 0) {
    months -= 1;
    days = epochDay(day) - epochDay(plusMonths(birth, months));
  }
  return { years: Math.floor(months / 12), months: months % 12, days };
}

/**
 * The calendar date of an instant in a time zone: 'YYYY-MM-DD'. The clinic's zone (CLINIC_TIME_ZONE),
 * so a Sydney morning visit is dated that morning, not the UTC day before. UTC when none is given.
 */
export function isoDate(at: Date, timeZone = 'UTC'): string {
  // en-CA formats as YYYY-MM-DD; the parts are read by type so no locale layout is assumed
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    at,
  );
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * The local date and time of an instant in a time zone: 'YYYY-MM-DDTHH:MM' (24-hour), the shape
 * the record form's observation time has, so the two sort and read alike.
 */
export function localDateTime(at: Date, timeZone = 'UTC'): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

// ---------------------------------------------------------------- wall-clock time in a zone

const DAY = 24 * 60 * 60 * 1000;

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** The local date and time of an instant in a zone, written as if UTC (Date.UTC of its fields). */
export function wallTimeOf(at: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const part of formatIn(timeZone).formatToParts(new Date(at))) p[part.type] = Number(part.value);
  const ms = ((at % 1000) + 1000) % 1000;
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, ms);
}

/** The zone's offset from UTC at an instant (ms; + east of Greenwich). */
const offsetAt = (at: number, timeZone: string) => wallTimeOf(at, timeZone) - at;

/**
 * The instant at which a zone's clocks read `wallMs` (a local date and time written as if UTC):
 * in a gap, moved forward by the gap's length; in an overlap, the earlier instant.
 */
export function instantOfWallTime(wallMs: number, timeZone: string): Date {
  // A change of offset is at least weeks from the next almost everywhere: the offsets a day
  // either side are the two that may apply.
  const before = offsetAt(wallMs - DAY, timeZone);
  const after = offsetAt(wallMs + DAY, timeZone);
  const matches = [wallMs - before, wallMs - after].filter((at) => offsetAt(at, timeZone) === wallMs - at);
  if (matches.length > 0) return new Date(Math.min(...matches));
  // No instant reads wallMs: a gap. The offset before it shifts the time forward by the gap.
  return new Date(wallMs - before);
}
