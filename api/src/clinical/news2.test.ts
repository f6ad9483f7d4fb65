import { measuresOf, vitalSigns } from '@careloop/shared-contracts';
import {
  consciousnessSubScore,
  news2,
  NEWS2_LABELS,
  NEWS2_PARAMETERS,
  news2Band,
  news2SubScore,
  oxygenSubScore,
  spo2SubScore,
  type NumericNews2Parameter,
} from './news2';

// RCP 2017 NEWS2 Chart 1, every band edge of the numeric parameters.
const BOUNDARIES: [NumericNews2Parameter, number, number][] = [
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

// Chart 1 SpO2 scale 1 edges.
const SCALE_1: [number, number][] = [
  [91, 3],
  [92, 2],
  [93, 2],
  [94, 1],
  [95, 1],
  [96, 0],
  [100, 0],
];
// Chart 1 SpO2 scale 2 edges: [spo2, on air, on oxygen].
const SCALE_2: [number, number, number][] = [
  [83, 3, 3],
  [84, 2, 2],
  [85, 2, 2],
  [86, 1, 1],
  [87, 1, 1],
  [88, 0, 0],
  [92, 0, 0],
  [93, 0, 1],
  [94, 0, 1],
  [95, 0, 2],
  [96, 0, 2],
  [97, 0, 3],
  [100, 0, 3],
];

const ALL_NORMAL = {
  respirationRate: 16,
  oxygenSaturation: 97,
  spo2Scale: 1 as const,
  supplementalOxygen: false,
  systolicBP: 120,
  pulse: 70,
  consciousness: 'A' as const,
  temperature: 37,
};

describe('news2SubScore (RCP 2017 Chart 1)', () => {
  it.each(BOUNDARIES)('%s %d scores %d', (parameter, value, points) => {
    expect(news2SubScore(parameter, value)).toBe(points);
  });

  it.each(SCALE_1)('SpO2 scale 1: %d %% scores %d (air or oxygen alike)', (spo2, points) => {
    expect(spo2SubScore(spo2, 1, false)).toBe(points);
    expect(spo2SubScore(spo2, 1, true)).toBe(points);
  });

  it.each(SCALE_2)('SpO2 scale 2: %d %% scores %d on air, %d on oxygen', (spo2, air, oxygen) => {
    expect(spo2SubScore(spo2, 2, false)).toBe(air);
    expect(spo2SubScore(spo2, 2, true)).toBe(oxygen);
  });

  it('SpO2 scale 2 at 93 % or more cannot be scored without knowing air or oxygen; below, both rows agree', () => {
    expect(spo2SubScore(93, 2, null)).toBeUndefined();
    expect(spo2SubScore(92, 2, null)).toBe(0);
    expect(spo2SubScore(84, 2, undefined)).toBe(2);
  });

  it('air 0, oxygen 2; alert 0, new confusion / voice / pain / unresponsive 3', () => {
    expect(oxygenSubScore(false)).toBe(0);
    expect(oxygenSubScore(true)).toBe(2);
    expect(consciousnessSubScore('A')).toBe(0);
    for (const c of ['C', 'V', 'P', 'U'] as const) expect(consciousnessSubScore(c)).toBe(3);
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

describe('news2 complete: the score and the RCP 2017 Chart 4 response', () => {
  it('total 0: low, routine 12-hourly monitoring', () => {
    const r = news2(ALL_NORMAL);
    expect(r).toMatchObject({ complete: true, total: 0, band: 'low', missing: [], singleParameterThree: false });
    expect(r.complete && r.response).toMatch(/12-hourly/);
    expect(r.subScores.map((s) => s.parameter)).toEqual([
      'respirationRate',
      'oxygenSaturation',
      'supplementalOxygen',
      'systolicBP',
      'pulse',
      'consciousness',
      'temperature',
    ]);
  });

  it('total 1–4 without a 3: low, 4–6-hourly', () => {
    const r = news2({ ...ALL_NORMAL, respirationRate: 22, systolicBP: 105, pulse: 95 }); // 2 + 1 + 1
    expect(r).toMatchObject({ complete: true, total: 4, band: 'low' });
    expect(r.complete && r.response).toMatch(/4–6-hourly/);
  });

  it('a single parameter scoring 3 with total < 5: low-medium, urgent ward-based response', () => {
    const r = news2({ ...ALL_NORMAL, consciousness: 'C' });
    expect(r).toMatchObject({ complete: true, total: 3, band: 'low-medium', singleParameterThree: true });
    expect(r.complete && r.response).toMatch(/urgent ward-based response/);
  });

  it('total 5: medium, key threshold for urgent response; oxygen adds 2', () => {
    expect(news2({ ...ALL_NORMAL, supplementalOxygen: true, respirationRate: 22, pulse: 95 })).toMatchObject({
      complete: true,
      total: 5,
      band: 'medium',
    }); // 2 + 2 + 1
    expect(news2Band(6, false).band).toBe('medium');
    expect(news2Band(5, false).response).toMatch(/key threshold for urgent response/);
  });

  it('total 7 or more: high, emergency response (a septic picture)', () => {
    const r = news2({
      respirationRate: 26,
      oxygenSaturation: 91,
      spo2Scale: 1,
      supplementalOxygen: false,
      systolicBP: 88,
      pulse: 132,
      consciousness: 'C',
      temperature: 39.2,
    }); // 3 + 3 + 0 + 3 + 3 + 3 + 2
    expect(r).toMatchObject({ complete: true, total: 17, band: 'high' });
    expect(news2Band(7, false)).toMatchObject({ band: 'high', response: expect.stringMatching(/^emergency response/) });
  });

  it('scale 2 on oxygen scores high saturations', () => {
    expect(news2({ ...ALL_NORMAL, spo2Scale: 2, supplementalOxygen: true, oxygenSaturation: 97 })).toMatchObject({
      complete: true,
      total: 5, // SpO2 3 + oxygen 2
    });
  });
});

describe('news2 incomplete: a lower bound, the missing parameters, no response tier', () => {
  it('any parameter missing: complete false, "at least" total, no band, no response', () => {
    const r = news2({ respirationRate: 16, systolicBP: 120, pulse: 70, temperature: 37 });
    expect(r).toMatchObject({ complete: false, total: 0, missing: ['oxygenSaturation', 'supplementalOxygen', 'consciousness'] });
    expect(r).not.toHaveProperty('band');
    expect(r).not.toHaveProperty('response');
  });

  it('each of the seven missing alone makes it incomplete', () => {
    for (const key of Object.keys(ALL_NORMAL).filter((k) => k !== 'spo2Scale') as (keyof typeof ALL_NORMAL)[]) {
      const r = news2({ ...ALL_NORMAL, [key]: null });
      expect(r.complete).toBe(false);
      expect(r.missing).toHaveLength(1);
    }
  });

  it('scale 2 at 93 % with air or oxygen unknown: SpO2 also missing', () => {
    const r = news2({ ...ALL_NORMAL, spo2Scale: 2, supplementalOxygen: null, oxygenSaturation: 95 });
    expect(r.missing).toEqual(['oxygenSaturation', 'supplementalOxygen']);
  });

  it('non-finite values are missing, not scored', () => {
    const r = news2({ ...ALL_NORMAL, systolicBP: Number.NaN });
    expect(r).toMatchObject({ complete: false, missing: ['systolicBP'] });
  });
});

describe('NEWS2 parameters and the declared vital signs', () => {
  it('each parameter is one declared vital sign (or part of one), and is named and measured as it', () => {
    for (const parameter of NEWS2_PARAMETERS) {
      const declared = vitalSigns().flatMap((v) =>
        measuresOf(v)
          .filter((m) => m.news2 === parameter)
          .map((m) => ({ label: m.label, unit: v.units[0] ?? '' })),
      );
      expect(declared).toEqual([NEWS2_LABELS[parameter]]);
    }
    expect(NEWS2_LABELS.respirationRate).toEqual({ label: 'Respiratory rate', unit: '/min' });
    expect(NEWS2_LABELS.systolicBP).toEqual({ label: 'Systolic blood pressure', unit: 'mmHg' });
    expect(news2({ respirationRate: 22 }).subScores).toEqual([{ parameter: 'respirationRate', value: '22 /min', score: 2 }]);
  });
});
