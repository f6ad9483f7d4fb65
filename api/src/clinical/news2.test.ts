import { news2, news2Band, news2SubScore, type News2Parameter } from './news2';

// RCP 2017 NEWS2 chart 1, every band edge.
const BOUNDARIES: [News2Parameter, number, number][] = [
  ['respirationRate', 8, 3],
  ['respirationRate', 9, 1],
  ['respirationRate', 11, 1],
  ['respirationRate', 12, 0],
  ['respirationRate', 20, 0],
  ['respirationRate', 21, 2],
  ['respirationRate', 24, 2],
  ['respirationRate', 25, 3],
  ['systolicBP', 90, 3],
  ['systolicBP', 91, 2],
  ['systolicBP', 100, 2],
  ['systolicBP', 101, 1],
  ['systolicBP', 110, 1],
  ['systolicBP', 111, 0],
  ['systolicBP', 219, 0],
  ['systolicBP', 220, 3],
  ['pulse', 40, 3],
  ['pulse', 41, 1],
  ['pulse', 50, 1],
  ['pulse', 51, 0],
  ['pulse', 90, 0],
  ['pulse', 91, 1],
  ['pulse', 110, 1],
  ['pulse', 111, 2],
  ['pulse', 130, 2],
  ['pulse', 131, 3],
  ['temperature', 35.0, 3],
  ['temperature', 35.1, 1],
  ['temperature', 36.0, 1],
  ['temperature', 36.1, 0],
  ['temperature', 38.0, 0],
  ['temperature', 38.1, 1],
  ['temperature', 39.0, 1],
  ['temperature', 39.1, 2],
];

describe('news2SubScore', () => {
  it.each(BOUNDARIES)('%s %d scores %d', (parameter, value, points) => {
    expect(news2SubScore(parameter, value)).toBe(points);
  });

  it('reads the bands as upper bounds for in-between values', () => {
    expect(news2SubScore('respirationRate', 20.5)).toBe(2);
    expect(news2SubScore('temperature', 38.05)).toBe(1);
    expect(news2SubScore('temperature', 35.05)).toBe(1);
    expect(news2SubScore('pulse', 3)).toBe(3);
    expect(news2SubScore('temperature', 42)).toBe(2);
  });

  it('refuses a value that is not a number', () => {
    expect(() => news2SubScore('pulse', Number.NaN)).toThrow(RangeError);
  });
});

describe('news2 bands (RCP 2017 chart 3)', () => {
  it('total 0: low, routine 12-hourly monitoring', () => {
    const r = news2({ respirationRate: 16, systolicBP: 120, pulse: 70, temperature: 37 });
    expect(r).toMatchObject({ total: 0, band: 'low', partial: true, unscored: [], singleParameterThree: false });
    expect(r.response).toMatch(/12-hourly/);
  });

  it('total 1–4 without a 3: low, 4–6-hourly', () => {
    const r = news2({ respirationRate: 22, systolicBP: 105, pulse: 95, temperature: 37 }); // 2 + 1 + 1
    expect(r).toMatchObject({ total: 4, band: 'low' });
    expect(r.response).toMatch(/4–6-hourly/);
  });

  it('a single parameter scoring 3 with total < 5: low-medium, urgent ward-based response', () => {
    const r = news2({ respirationRate: 16, systolicBP: 120, pulse: 70, temperature: 34.5 });
    expect(r).toMatchObject({ total: 3, band: 'low-medium', singleParameterThree: true });
    expect(r.response).toMatch(/urgent ward-based response/);
    expect(news2({ respirationRate: 26, pulse: 95 })).toMatchObject({ total: 4, band: 'low-medium' });
  });

  it('total 5: medium, key threshold for urgent response — also when one parameter scored 3', () => {
    expect(news2({ respirationRate: 22, systolicBP: 95, pulse: 95 })).toMatchObject({ total: 5, band: 'medium' }); // 2 + 2 + 1
    expect(news2({ respirationRate: 26, systolicBP: 95 })).toMatchObject({ total: 5, band: 'medium' }); // 3 + 2
    expect(news2Band(6, false).band).toBe('medium');
    expect(news2Band(5, false).response).toMatch(/key threshold for urgent response/);
  });

  it('total 7 or more: high, emergency response', () => {
    const r = news2({ respirationRate: 26, systolicBP: 88, pulse: 115 }); // 3 + 3 + 2 = 8
    expect(r).toMatchObject({ total: 8, band: 'high' });
    expect(news2Band(7, false)).toMatchObject({ band: 'high', response: expect.stringMatching(/^emergency response/) });
  });

  it('lists unscored parameters and always the three never in the record', () => {
    const r = news2({ pulse: 80, temperature: null, systolicBP: Number.NaN });
    expect(r.unscored).toEqual(['respirationRate', 'systolicBP', 'temperature']);
    expect(r.subScores).toEqual([{ parameter: 'pulse', value: 80, score: 0 }]);
    expect(r.notInRecord).toEqual(['SpO2', 'air or oxygen', 'consciousness']);
    expect(r.partial).toBe(true);
  });
});
