import { z } from 'zod';
import { EntityId } from './common';
import type { VITAL_SIGNS } from './vital-sign-list';
import { measuresOf, vitalSigns } from './vital-signs';

/** The trend reads at most the latest this many records of the patient (the chart's points). */
export const TREND_MAX_RECORDS = 200;

/** GET /vital-signs[?patientId=]: the patient's own (patientId omitted or theirs), or an assigned patient's (doctor). */
export const VitalSignTrendQuery = z.strictObject({ patientId: EntityId.optional() });

/** A usable reading, or null: not measured, unreadable or implausible. Never a guessed number. */
const Measured = z.number().nullable();

/** A charted vital sign's measures: a blood pressure's components, else the sign itself. */
type ChartedKeyOf<V> = V extends { chart: true }
  ? V extends { components: readonly (infer C)[] }
    ? C extends { key: infer K extends string }
      ? K
      : never
    : V extends { key: infer K extends string }
      ? K
      : never
  : never;
/** The trend's measures, by key: those of the vital signs declared with `chart` (VITAL_SIGNS). */
export type TrendMeasureKey = ChartedKeyOf<(typeof VITAL_SIGNS)[number]>;

/** The trend's measures in the declared order (a blood pressure: systolic, then diastolic). */
export const trendMeasures = () =>
  vitalSigns()
    .filter((v) => v.chart)
    .flatMap((v) => measuresOf(v).map((m) => m.key)) as TrendMeasureKey[];

/** One entry per measure, in the declared order. */
const perMeasure = <T extends z.ZodType>(schema: T) =>
  Object.fromEntries(trendMeasures().map((k) => [k, schema])) as { [K in TrendMeasureKey]: T };

export const VitalSignPoint = z.object({
  recordId: z.string(),
  title: z.string(),
  /** the clinic's local date and time, "YYYY-MM-DDTHH:MM" */
  at: z.string(),
  /** `observed`: the record's observation time; `recorded`: when the record was written (no observation time given) */
  atSource: z.enum(['observed', 'recorded']),
  /** null when no NEWS2 parameter could be scored; `complete: false` makes `total` a lower bound ("at least") */
  news2: z.object({ total: z.number().int(), complete: z.boolean() }).nullable(),
  /** each charted measure in the first unit its vital sign declares (a temperature in °C: a °F reading converted) */
  ...perMeasure(Measured),
  /** the NEWS2 SpO2 scale the saturation is read on: 1 or 2 (a plain number: OpenAPI 3.0 has no nullable union) */
  spo2Scale: z.number().int(),
  /** true on supplemental oxygen, false on air, null when not recorded */
  supplementalOxygen: z.boolean().nullable(),
});
export type VitalSignPoint = z.infer<typeof VitalSignPoint>;

export const ReferenceRange = z.object({ low: z.number(), high: z.number(), unit: z.string() });
export type ReferenceRange = z.infer<typeof ReferenceRange>;

/** A NEWS2 risk band by aggregate score, both ends inclusive. */
export const News2BandRange = z.object({ band: z.enum(['low', 'medium', 'high']), low: z.number(), high: z.number() });
export type News2BandRange = z.infer<typeof News2BandRange>;

export const VitalSignTrend = z.object({
  patientId: z.string(),
  /** oldest first */
  points: z.array(VitalSignPoint),
  /** true when the patient has more records than TREND_MAX_RECORDS (only the latest are shown) */
  truncated: z.boolean(),
  /** the shaded bands, from the api's clinical module (the web apps hold no clinical numbers) */
  /** each charted measure's adult reference range */
  reference: z.object({
    ...perMeasure(ReferenceRange),
    /** the target range of the SpO2 scale of the latest saturation (scale 1 when none) */
    oxygenSaturation: ReferenceRange.extend({ scale: z.number().int() }),
  }),
  news2Bands: z.array(News2BandRange),
});
export type VitalSignTrend = z.infer<typeof VitalSignTrend>;
