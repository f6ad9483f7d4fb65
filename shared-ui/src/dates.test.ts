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

describe('formatDateTime in a time zone', () => {
  it('writes the moment as the clinic reads it, whatever the viewer’s zone', () => {
    const at = '2026-11-24T22:30:00.000Z';
    expect(formatDateTime(at, 'Australia/Sydney')).toBe('25 Nov 2026, 09:30');
    expect(formatDateTime(at, 'America/New_York')).toBe('24 Nov 2026, 17:30');
    expect(formatDateTime(at, 'UTC')).toBe('24 Nov 2026, 22:30');
  });
});
