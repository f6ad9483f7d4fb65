import { render } from '@testing-library/react';
import type { VitalSignTrend } from '@careloop/shared-contracts';
import VitalSignChart from './VitalSignChart';

// jsdom has no canvas: uPlot is replaced at its module edge to read the options the chart gives it.
const made: { scales: { x: { range: (u: unknown, min: number, max: number) => [number, number] } } }[] = [];
jest.mock('uplot', () => {
  const Plot = jest.fn().mockImplementation((opts) => {
    made.push(opts);
    return { setSize: jest.fn(), destroy: jest.fn() };
  });
  return { __esModule: true, default: Object.assign(Plot, { tzDate: (d: Date) => d }) };
});
jest.mock('uplot/dist/uPlot.min.css', () => '');

beforeAll(() => {
  globalThis.ResizeObserver = class {
    observe() {}
    disconnect() {}
    unobserve() {}
  } as unknown as typeof ResizeObserver;
});
beforeEach(() => {
  made.length = 0;
});

const DAY = 86400;
const point = {
  recordId: 'r1',
  title: 'Observations',
  at: '2026-11-23T22:38',
  atSource: 'recorded' as const,
  news2: { total: 1, complete: true },
  systolic: 124,
  diastolic: 80,
  pulse: 92,
  respiratoryRate: 16,
  oxygenSaturation: 98,
  spo2Scale: 1,
  supplementalOxygen: false,
  temperature: 36.8,
};
const trendOf = (points: (typeof point)[]): VitalSignTrend => ({
  patientId: '6f1c1e4e-8a4b-4f0e-9a39-2f1f5e1c0a11',
  truncated: false,
  points,
  reference: {
    systolic: { low: 90, high: 120, unit: 'mmHg' },
    diastolic: { low: 60, high: 80, unit: 'mmHg' },
    pulse: { low: 60, high: 100, unit: '/min' },
    respiratoryRate: { low: 12, high: 20, unit: '/min' },
    oxygenSaturation: { low: 96, high: 100, unit: '%', scale: 1 },
    temperature: { low: 36.1, high: 38, unit: '°C' },
  },
  news2Bands: [
    { band: 'low', low: 0, high: 4 },
    { band: 'medium', low: 5, high: 6 },
    { band: 'high', low: 7, high: 20 },
  ],
});
const at = (text: string) => Date.parse(`${text}:00Z`) / 1000;

test('records all at one time (one record, or two in the same minute) span one day, not the 1000 days uPlot widens them to', () => {
  render(<VitalSignChart trend={trendOf([point, { ...point, recordId: 'r2', pulse: 128 }])} />);
  expect(made.length).toBeGreaterThan(0);
  const t = at(point.at);
  for (const opts of made) {
    // what uPlot passes for a single time on a time scale: the time and 1000 days later
    const [min, max] = opts.scales.x.range(null, t, t + 1000 * DAY);
    expect([min, max]).toEqual([t - DAY / 2, t + DAY / 2]);
  }
});

test('records at different times span them with a 5 % margin either side', () => {
  render(<VitalSignChart trend={trendOf([point, { ...point, recordId: 'r2', at: '2026-11-24T22:38' }])} />);
  const t = at(point.at);
  const [min, max] = made[0].scales.x.range(null, t, t + DAY);
  expect([min, max]).toEqual([t - DAY * 0.05, t + DAY * 1.05]);
});
