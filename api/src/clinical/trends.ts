import {
  measuresOf,
  trendMeasures,
  vitalSigns,
  type MedicalRecord,
  type TrendMeasureKey,
  type VitalSignPoint,
  type VitalSignTrend,
} from '@careloop/shared-contracts';
import { localDateTime } from './age';
import { NEWS2_RISK_BANDS } from './news2';
import { recordObservations } from './observations';
import { measureValue, REFERENCE, SPO2_TARGET, type Range } from './vitals';

/*
 * The vital-sign trend of a patient: one point per record, each measure a number only when its
 * reading is usable (recordObservations), otherwise null — a gap in the chart, never a guessed
 * value (api/CLINICAL.md, hazard "a trend shows a guessed value").
 */

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** One record's point. `at` is its observation time when given, else when it was written, in the clinic's zone. */
export function trendPoint(record: MedicalRecord, timeZone?: string): VitalSignPoint {
  const o = recordObservations(record);
  const observedAt = record.examination.generalPhysicalExamination.observedAt ?? '';
  const observed = LOCAL_DATE_TIME.test(observedAt);
  // each charted vital sign's measures (VITAL_SIGNS `chart`; a blood pressure's systolic and diastolic), by key
  const measured = Object.fromEntries(
    vitalSigns()
      .filter((v) => v.chart)
      .flatMap((v) => measuresOf(v).map((m) => [m.key, measureValue(o.readings.get(v.key)!, m.key)])),
  ) as Record<TrendMeasureKey, number | null>;
  return {
    recordId: record._id,
    title: record.title,
    at: observed ? observedAt : localDateTime(new Date(record.createdAt), timeZone),
    atSource: observed ? 'observed' : 'recorded',
    // nothing scored is no score at all; a partial one keeps its lower bound and says so
    news2: o.news2.subScores.length ? { total: o.news2.total, complete: o.news2.complete } : null,
    ...measured,
    spo2Scale: o.scale,
    supplementalOxygen: o.onOxygen,
  };
}

/**
 * The trend of a patient's records (any order in): points oldest first, by `at`, records written
 * at the same minute in the order written; the reference ranges and NEWS2 bands to shade.
 */
export function vitalSignTrend(
  patientId: string,
  records: MedicalRecord[],
  { timeZone, truncated = false }: { timeZone?: string; truncated?: boolean } = {},
): VitalSignTrend {
  const points = records
    .map((record) => ({ record, point: trendPoint(record, timeZone) }))
    .sort(
      (a, b) =>
        a.point.at.localeCompare(b.point.at) ||
        a.record.createdAt.localeCompare(b.record.createdAt) ||
        a.record._id.localeCompare(b.record._id),
    )
    .map((p) => p.point);
  // The SpO2 band follows the scale the patient is read on now: scale 2's target is 88–92 %, and
  // shading 96–100 % as normal for them would invite over-oxygenation (RCP 2017 Chart 1).
  const latestSpo2 = [...points].reverse().find((p) => p.oxygenSaturation !== null);
  const scale = latestSpo2?.spo2Scale === 2 ? 2 : 1;
  return {
    patientId,
    points,
    truncated,
    reference: {
      // each charted measure's adult range (vitals.ts REFERENCE: a charted vital sign needs one)
      ...(Object.fromEntries(trendMeasures().map((k) => [k, REFERENCE[k as keyof typeof REFERENCE]])) as Record<
        TrendMeasureKey,
        Range
      >),
      oxygenSaturation: { ...SPO2_TARGET[scale], scale },
    },
    news2Bands: NEWS2_RISK_BANDS.map((b) => ({ ...b })),
  };
}
