import {
  formatDateTime,
  labelInSentence,
  measuresOf,
  vitalSigns,
  type ReferenceRange,
  type VitalSign,
  type VitalSignPoint,
  type VitalSignTrend,
} from '@careloop/shared-contracts';

/*
 * The trend chart's panels: NEWS2, then one per charted vital sign (shared-contracts VITAL_SIGNS
 * `chart`, in the declared order, with its label, first unit and measures), read by both the view
 * (its accessible name, its table) and the lazily loaded chart. Every number shaded comes from the
 * api's answer: the web app holds no clinical thresholds.
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

const normal = (r?: { low: number; high: number }) => (r ? [{ low: r.low, high: r.high, tone: 'normal' as const }] : []);

const NEWS2_PANEL: TrendPanel = {
  key: 'news2',
  title: 'NEWS2',
  unit: 'score',
  // An incomplete score is only a lower bound: plotting it could read as reassurance (api/CLINICAL.md).
  series: [{ label: 'NEWS2', value: (p) => (p.news2?.complete ? p.news2.total : null) }],
  bands: (t) => t.news2Bands.map((b) => ({ low: b.low, high: b.high, tone: b.band })),
  integer: true,
  note: () => 'Complete scores only; an incomplete one is in the table.',
};

/** A measure's number in a point, by its key (null when the point has none). */
const measured = (p: VitalSignPoint, key: string): number | null => {
  const value = (p as unknown as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : null;
};
/** A measure's reference range in the api's answer, by its key. */
const referenceOf = (t: VitalSignTrend, key: string) =>
  (t.reference as unknown as Record<string, (ReferenceRange & { scale?: number }) | undefined>)[key];

/** A charted vital sign's panel: a line per measure (the second dashed), each measure's range shaded. */
function vitalSignPanel(v: VitalSign): TrendPanel {
  const measures = measuresOf(v);
  return {
    key: v.key,
    title: v.label,
    unit: v.units[0] ?? '',
    series: measures.map((m, i) => ({ label: m.label, value: (p) => measured(p, m.key), ...(i > 0 ? { dashed: true } : {}) })),
    bands: (t) => measures.flatMap((m) => normal(referenceOf(t, m.key))),
    note: (t) => {
      if (measures.length > 1)
        return `Solid line: ${labelInSentence(measures[0].label)}; dashed: ${labelInSentence(measures[1].label)}.`;
      const scale = referenceOf(t, v.key)?.scale;
      return scale === undefined ? undefined : `Shaded: the scale ${scale} target of the latest reading.`;
    },
  };
}

export const TREND_PANELS: TrendPanel[] = [
  NEWS2_PANEL,
  ...vitalSigns()
    .filter((v) => v.chart)
    .map(vitalSignPanel),
];

/** "NEWS2, blood pressure, pulse, temperature, respiratory rate and SpO2" */
export const measuresText = (() => {
  const names = TREND_PANELS.map((p) => labelInSentence(p.title));
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
})();

/** "2025-03-01T08:30" → "1 Mar 2025, 08:30" (the clinic's local time, as the api gives it). */
export const timeText = (at: string) => formatDateTime(at);
