import type { VitalSignPoint, VitalSignTrend } from '@careloop/shared-contracts';

/*
 * The trend chart's panels, one per measure, read by both the view (its accessible name, its
 * table) and the lazily loaded chart. Every number shaded comes from the api's answer: the web
 * app holds no clinical thresholds.
 */

export type BandTone = 'normal' | 'low' | 'medium' | 'high';

export interface TrendSeries {
  label: string;
  value: (p: VitalSignPoint) => number | null;
  dashed?: boolean;
}

export interface TrendPanel {
  key: string;
  title: string;
  unit: string;
  series: TrendSeries[];
  bands: (t: VitalSignTrend) => { low: number; high: number; tone: BandTone }[];
  /** scores are whole numbers: a band 0–4 is shaded from -0.5 to 4.5, so neighbouring bands meet */
  integer?: boolean;
  note?: (t: VitalSignTrend) => string | undefined;
}

const normal = (r: { low: number; high: number }) => [{ low: r.low, high: r.high, tone: 'normal' as const }];

export const TREND_PANELS: TrendPanel[] = [
  {
    key: 'news2',
    title: 'NEWS2',
    unit: 'score',
    // An incomplete score is only a lower bound: plotting it could read as reassurance (api/CLINICAL.md).
    series: [{ label: 'NEWS2', value: (p) => (p.news2?.complete ? p.news2.total : null) }],
    bands: (t) => t.news2Bands.map((b) => ({ low: b.low, high: b.high, tone: b.band })),
    integer: true,
    note: () => 'Complete scores only; an incomplete one is in the table.',
  },
  {
    key: 'bp',
    title: 'Blood pressure',
    unit: 'mmHg',
    series: [
      { label: 'Systolic', value: (p) => p.systolic },
      { label: 'Diastolic', value: (p) => p.diastolic, dashed: true },
    ],
    bands: (t) => [...normal(t.reference.systolic), ...normal(t.reference.diastolic)],
    note: () => 'Solid line: systolic; dashed: diastolic.',
  },
  {
    key: 'pulse',
    title: 'Pulse',
    unit: '/min',
    series: [{ label: 'Pulse', value: (p) => p.pulse }],
    bands: (t) => normal(t.reference.pulse),
  },
  {
    key: 'rr',
    title: 'Respiratory rate',
    unit: '/min',
    series: [{ label: 'Respiratory rate', value: (p) => p.respiratoryRate }],
    bands: (t) => normal(t.reference.respiratoryRate),
  },
  {
    key: 'spo2',
    title: 'SpO2',
    unit: '%',
    series: [{ label: 'SpO2', value: (p) => p.oxygenSaturation }],
    bands: (t) => normal(t.reference.oxygenSaturation),
    note: (t) => `Shaded: the scale ${t.reference.oxygenSaturation.scale} target of the latest reading.`,
  },
  {
    key: 'temp',
    title: 'Temperature',
    unit: '°C',
    series: [{ label: 'Temperature', value: (p) => p.temperature }],
    bands: (t) => normal(t.reference.temperature),
  },
];

/** "NEWS2, blood pressure, pulse, respiratory rate, SpO2 and temperature" */
export const measuresText = (() => {
  const names = TREND_PANELS.map((p) => (p.title === 'NEWS2' || p.title === 'SpO2' ? p.title : p.title.toLowerCase()));
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
})();

/** "2025-03-01T08:30" → "2025-03-01 08:30" (the clinic's local time, as the api gives it). */
export const timeText = (at: string) => at.replace('T', ' ');
