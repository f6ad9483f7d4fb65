import { formatDateTime } from './dates';

describe('formatDateTime', () => {
  it('writes the day, the month as a word, the year and a 24-hour time, in local time', () => {
    expect(formatDateTime(new Date(2026, 2, 3, 7, 5))).toBe('3 Mar 2026, 07:05');
    expect(formatDateTime(new Date(2026, 10, 24, 19, 30).toISOString())).toBe('24 Nov 2026, 19:30');
    expect(formatDateTime(new Date(2026, 0, 1, 0, 0).getTime())).toBe('1 Jan 2026, 00:00');
  });

  it('says so when the time cannot be read, instead of "Invalid Date"', () => {
    expect(formatDateTime('not a time')).toBe('unknown time');
  });
});
