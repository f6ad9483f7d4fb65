/*
 * How long a prescription runs, read from what a prescriber writes in its frequency or dosage:
 * "bd for 7 days", "tds x 5 days", "od for 2 weeks", "for 3 months", and the UK shorthand "7/7"
 * (days), "2/52" (weeks), "3/12" (months). Nothing found: the caller asks for a duration, an end
 * date or long-term; a prescription with none stays active until stopped (fail safe: its
 * interactions keep being checked).
 */

const UNIT_DAYS: Record<string, number> = {
  d: 1,
  day: 1,
  days: 1,
  w: 7,
  wk: 7,
  wks: 7,
  week: 7,
  weeks: 7,
  month: 30,
  months: 30,
};
const WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
  fourteen: 14,
};
const SHORTHAND: Record<string, number> = { '7': 1, '52': 7, '12': 30 };

/** The course length in days stated in a text, if any (the first statement wins). */
export function courseDaysIn(text: string): number | undefined {
  const t = text.toLowerCase();
  const spelt =
    /\b(?:for|x|×)\s*(\d{1,4}|a|an|one|two|three|four|five|six|seven|ten|fourteen)\s*(d|days?|w|wks?|weeks?|months?)\b/.exec(t);
  if (spelt) {
    const n = /^\d+$/.test(spelt[1]) ? Number(spelt[1]) : WORDS[spelt[1]];
    return n > 0 ? n * UNIT_DAYS[spelt[2]] : undefined;
  }
  const short = /(?:^|[^\d/])(\d{1,2})\/(7|52|12)(?![\d/])/.exec(t);
  if (short) {
    const n = Number(short[1]);
    return n > 0 ? n * SHORTHAND[short[2]] : undefined;
  }
  return undefined;
}

/** The last day (YYYY-MM-DD) of a course of `days` days starting on `first` (day 1). */
export function lastDayOf(first: string, days: number): string {
  const d = new Date(`${first}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days - 1);
  return d.toISOString().slice(0, 10);
}
