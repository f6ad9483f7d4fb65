import { formatDate, formatDateTime } from './dates';

// the reader's zone for the tests that use it: far east (UTC+14) and far west (UTC−11)
const FAR_EAST = 'Pacific/Kiritimati';
const FAR_WEST = 'Pacific/Pago_Pago';
const withReaderIn = (timeZone: string, run: () => void) => {
  const before = process.env.TZ;
  process.env.TZ = timeZone;
  try {
    run();
  } finally {
    process.env.TZ = before;
  }
};

describe('formatDate', () => {
  it('writes a calendar date as "12 Mar 1985"', () => {
    expect(formatDate('1985-03-12')).toBe('12 Mar 1985');
    expect(formatDate('2026-09-01')).toBe('1 Sep 2026');
    expect(formatDate('2026-12-31')).toBe('31 Dec 2026');
  });

  it.each([FAR_EAST, FAR_WEST])('never moves a "YYYY-MM-DD" date by a day, read in %s or written for it', (zone) => {
    withReaderIn(zone, () => {
      expect(formatDate('1985-03-12')).toBe('12 Mar 1985');
      expect(formatDate('2026-01-01')).toBe('1 Jan 2026');
    });
    expect(formatDate('1985-03-12', zone)).toBe('12 Mar 1985');
    expect(formatDate('2026-01-01', zone)).toBe('1 Jan 2026');
  });

  it("gives a moment's calendar day in the clinic's zone", () => {
    const at = '2026-11-27T22:30:00.000Z';
    expect(formatDate(at, 'UTC')).toBe('27 Nov 2026');
    expect(formatDate(at, FAR_EAST)).toBe('28 Nov 2026');
    expect(formatDate('2026-11-27T05:00:00.000Z', FAR_WEST)).toBe('26 Nov 2026');
  });

  it('says "unknown date" for what cannot be read, never "Invalid Date"', () => {
    expect(formatDate('not a date')).toBe('unknown date');
    expect(formatDate('2026-13-01')).toBe('unknown date');
    expect(formatDate('')).toBe('unknown date');
    expect(formatDate(null)).toBe('unknown date');
  });
});

describe('formatDateTime', () => {
  it('writes the day, the month as a word, the year and a 24-hour time, in local time', () => {
    expect(formatDateTime(new Date(2026, 2, 3, 7, 5))).toBe('3 Mar 2026, 07:05');
    expect(formatDateTime(new Date(2026, 10, 24, 19, 30).toISOString())).toBe('24 Nov 2026, 19:30');
    expect(formatDateTime(new Date(2026, 0, 1, 0, 0).getTime())).toBe('1 Jan 2026, 00:00');
    // September is "Sep", not the "Sept" of some locales' data
    expect(formatDateTime(new Date(2026, 8, 9, 12, 0))).toBe('9 Sep 2026, 12:00');
  });

  it('says so when the time cannot be read, instead of "Invalid Date"', () => {
    expect(formatDateTime('not a time')).toBe('unknown time');
    expect(formatDateTime(undefined)).toBe('unknown time');
  });

  it("writes a wall-clock time with no zone (a record's observation time) as written, wherever it is read", () => {
    for (const zone of [FAR_EAST, FAR_WEST])
      withReaderIn(zone, () => expect(formatDateTime('2026-11-27T19:30')).toBe('27 Nov 2026, 19:30'));
    expect(formatDateTime('2026-11-27T19:30', FAR_WEST)).toBe('27 Nov 2026, 19:30');
    // a bare calendar date: just the date
    expect(formatDateTime('1985-03-12', FAR_EAST)).toBe('12 Mar 1985');
  });
});

describe('formatDateTime in a time zone', () => {
  it('writes the moment as the clinic reads it, whatever the viewer’s zone', () => {
    const at = '2026-11-24T22:30:00.000Z';
    expect(formatDateTime(at, 'Australia/Sydney')).toBe('25 Nov 2026, 09:30');
    expect(formatDateTime(at, 'America/New_York')).toBe('24 Nov 2026, 17:30');
    expect(formatDateTime(at, 'UTC')).toBe('24 Nov 2026, 22:30');
    expect(formatDateTime(at, FAR_EAST)).toBe('25 Nov 2026, 12:30');
    expect(formatDateTime(at, FAR_WEST)).toBe('24 Nov 2026, 11:30');
  });
});
