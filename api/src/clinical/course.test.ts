import { courseDaysIn, lastDayOf } from './course';

describe('the course length written in a prescription', () => {
  it.each([
    ['bd for 7 days', 7],
    ['Twice daily FOR 5 DAYS', 5],
    ['tds x 5 days', 5],
    ['od for 2 weeks', 14],
    ['for a week', 7],
    ['for three months', 90],
    ['1 bd 7/7', 7],
    ['od 2/52', 14],
    ['nocte 3/12', 90],
    ['for 10d', 10],
  ])('%s → %i days', (text, days) => expect(courseDaysIn(text)).toBe(days));

  it.each(['bd', 'once daily', 'every 4 hours, max 4 doses', '500 mg/5 ml', '12/03/2026', 'for 0 days', 'prn'])(
    '%s → none stated',
    (text) => expect(courseDaysIn(text)).toBeUndefined(),
  );

  it('counts the first day as day 1, across month and year ends', () => {
    expect(lastDayOf('2026-11-27', 7)).toBe('2026-12-03');
    expect(lastDayOf('2026-12-30', 3)).toBe('2027-01-01');
    expect(lastDayOf('2028-02-28', 2)).toBe('2028-02-29');
    expect(lastDayOf('2026-11-27', 1)).toBe('2026-11-27');
  });
});
