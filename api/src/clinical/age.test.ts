import { ageOn, daysInMonth, isoDate } from './age';

describe('ageOn', () => {
  it.each<[string, string, [number, number, number]]>([
    ['1990-02-28', '2025-03-01', [35, 0, 1]],
    ['2000-01-15', '2000-01-15', [0, 0, 0]],
    ['2000-01-15', '2001-01-14', [0, 11, 30]],
    ['2000-01-15', '2001-01-15', [1, 0, 0]],
    ['2024-06-10', '2024-07-09', [0, 0, 29]],
    ['2024-06-10', '2024-07-10', [0, 1, 0]],
    // month ends: a month added to the 31st lands on the last day of a shorter month
    ['2023-01-31', '2023-02-28', [0, 0, 28]],
    ['2023-01-31', '2023-03-01', [0, 1, 1]],
    ['2023-01-31', '2023-03-31', [0, 2, 0]],
    ['2023-03-31', '2023-04-30', [0, 0, 30]],
    ['2023-03-31', '2023-05-01', [0, 1, 1]],
    ['2024-01-31', '2024-02-29', [0, 0, 29]],
    ['2024-01-31', '2024-03-01', [0, 1, 1]],
    // leap days
    ['2020-02-29', '2021-02-28', [0, 11, 30]],
    ['2020-02-29', '2021-03-01', [1, 0, 1]],
    ['2020-02-29', '2024-02-28', [3, 11, 30]],
    ['2020-02-29', '2024-02-29', [4, 0, 0]],
    ['2019-03-01', '2020-02-29', [0, 11, 28]],
    ['2023-12-31', '2024-01-01', [0, 0, 1]],
    ['1950-07-04', '2025-07-03', [74, 11, 29]],
  ])('born %s, on %s', (dob, on, [years, months, days]) => {
    expect(ageOn(dob, on)).toEqual({ years, months, days });
  });

  it('is null without a usable date of birth, or one after the day', () => {
    expect(ageOn(null, '2025-01-01')).toBeNull();
    expect(ageOn(undefined, '2025-01-01')).toBeNull();
    expect(ageOn('', '2025-01-01')).toBeNull();
    expect(ageOn('2025-01-02', '2025-01-01')).toBeNull();
    expect(ageOn('2023-02-29', '2025-01-01')).toBeNull();
    expect(ageOn('1990-13-01', '2025-01-01')).toBeNull();
    expect(ageOn('1990-1-1', '2025-01-01')).toBeNull();
  });

  it('adding the age back to the date of birth gives the day (exhaustive over four years)', () => {
    const start = Date.UTC(2019, 0, 1);
    for (let b = 0; b < 4 * 366; b += 7) {
      for (let a = b; a < b + 800; a += 13) {
        const dob = isoDate(new Date(start + b * 86_400_000));
        const on = isoDate(new Date(start + a * 86_400_000));
        const age = ageOn(dob, on)!;
        const [y, m, d] = dob.split('-').map(Number);
        const total = y * 12 + (m - 1) + age.years * 12 + age.months;
        const ty = Math.floor(total / 12);
        const tm = (total % 12) + 1;
        const base = Date.UTC(ty, tm - 1, Math.min(d, daysInMonth(ty, tm)));
        expect(isoDate(new Date(base + age.days * 86_400_000))).toBe(on);
        expect(age.months).toBeLessThan(12);
        expect(age.days).toBeGreaterThanOrEqual(0);
        expect(age.days).toBeLessThan(31);
      }
    }
  });

  it('isoDate is the calendar day in a time zone: a Sydney morning is not the UTC day before', () => {
    expect(isoDate(new Date('2025-02-28T21:30:00Z'), 'Australia/Sydney')).toBe('2025-03-01');
    expect(isoDate(new Date('2025-03-01T02:00:00Z'), 'America/Los_Angeles')).toBe('2025-02-28');
    expect(isoDate(new Date('2025-03-01T02:00:00Z'), 'UTC')).toBe('2025-03-01');
  });

  it('isoDate is the UTC calendar day', () => {
    expect(isoDate(new Date('2025-12-31T23:59:59Z'))).toBe('2025-12-31');
    expect(isoDate(new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01');
  });
});
