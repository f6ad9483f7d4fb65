import { z } from 'zod';
import { Acuity } from './assessment';
import { EntityId } from './common';
import { AssignedPatient } from './profiles';
import { News2ParameterName } from './vital-sign-list';

/** RCP 2017 NEWS2 Chart 3 bands of a complete score. */
export const News2Band = z.enum(['low', 'low-medium', 'medium', 'high']);
export type News2Band = z.infer<typeof News2Band>;

/** A patient's latest observation set (the latest record with a vital sign) as the worklist reads it. */
export const WorklistLatest = z.object({
  recordId: EntityId,
  /** when the record was written (ISO 8601) */
  recordedAt: z.string(),
  news2: z.object({
    /** complete: the score; incomplete: a lower bound ("at least total") */
    total: z.number().int(),
    /** all seven parameters scored */
    complete: z.boolean(),
    /** Chart 3 band; only for a complete score (a partial score never reads as a band) */
    band: News2Band.optional(),
    /** one parameter scored 3 (Chart 3: at least low-medium) */
    singleParameterThree: z.boolean(),
    /** false under 16: no adult tier is shown (use a paediatric score) */
    applicable: z.boolean(),
  }),
  /** the parameters not scored, when incomplete */
  missing: z.array(News2ParameterName).optional(),
});
export type WorklistLatest = z.infer<typeof WorklistLatest>;

/** One assigned patient on the doctor's worklist. */
export const WorklistItem = AssignedPatient.extend({
  /** the highest acuity of the latest observation set and the latest record */
  acuity: Acuity,
  /** why the row is where it is, most urgent first ("Critical: glucose 1.9 mmol/L", "NEWS2 9 high") */
  reasons: z.array(z.string()),
  /** null: no vital signs recorded yet (unknown, not low) */
  latest: WorklistLatest.nullable(),
  /**
   * latest NEWS2 total − the previous record's. null when there is no previous record, and when
   * either score is incomplete: a difference of lower bounds is no measured change.
   */
  change: z.number().int().nullable(),
  /** the latest record's time (ISO 8601); null without one */
  lastRecordAt: z.string().nullable(),
  /** the latest observation set's time (ISO 8601): "last vitals 3 days ago" */
  lastVitalsAt: z.string().nullable(),
});
export type WorklistItem = z.infer<typeof WorklistItem>;

/**
 * GET /doctor/worklist: every assigned patient, most at risk first (api/src/clinical/worklist.ts:
 * acuity first (critical values and possible sepsis above NEWS2), then Chart 3 level, then total; an incomplete score ranks by its lower bound and never below a
 * complete one of the same or a lower total; no record ranks as "at least 0", above complete low
 * scores; ties: the most recent record first).
 */
export const WorklistResponse = z.object({ items: z.array(WorklistItem) });
export type WorklistResponse = z.infer<typeof WorklistResponse>;
