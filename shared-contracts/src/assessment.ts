import { z } from 'zod';
import { MedicationAlert } from './medication-safety';

/*
 * The clinical assessment of a medical record (api/src/clinical/assessment.ts): computed when the
 * record is written and again when anything it reads changes; every view reads this one object.
 */

/** How soon someone must act: the banner's colour and wording, the worklist's order. */
export const Acuity = z.enum(['emergency', 'urgent', 'review', 'none']);
export type Acuity = z.infer<typeof Acuity>;

export const AssessmentFinding = z.object({
  acuity: Acuity,
  kind: z.enum(['critical', 'news2', 'sepsis', 'glucose', 'blood-pressure', 'medication', 'data-quality']),
  /** short: "Critical: glucose 1.9 mmol/L", "Possible sepsis", "NEWS2 9 high" */
  title: z.string(),
  /** what was found and what to do */
  detail: z.string(),
  /** where the rule comes from */
  source: z.string(),
});
export type AssessmentFinding = z.infer<typeof AssessmentFinding>;

export const AssessmentNews2 = z.object({
  /** complete: the score; incomplete: a lower bound ("at least total") */
  total: z.number().int(),
  complete: z.boolean(),
  band: z.enum(['low', 'low-medium', 'medium', 'high']).optional(),
  singleParameterThree: z.boolean(),
  missing: z.array(z.string()),
  /** false under 16: the adult tier is not shown */
  applicable: z.boolean(),
});

export const Assessment = z.object({
  /** the highest acuity of the findings ('none' when there is none) */
  acuity: Acuity,
  /** the findings' titles, most urgent first: reasons[0] is why */
  reasons: z.array(z.string()),
  findings: z.array(AssessmentFinding),
  /** context that adds caution (age unknown, under 16, pregnancy) */
  caveats: z.array(z.string()),
  /** null when the record has no vital sign */
  news2: AssessmentNews2.nullable(),
  medicationAlerts: z.array(MedicationAlert),
  /** the record has an observation set (any vital sign) */
  hasVitals: z.boolean(),
  /** the observation time as typed (clinic's local time), if any */
  observedAt: z.string().nullable(),
  /** when it was computed (ISO 8601) */
  computedAt: z.string(),
  /** the patient's clinical version it was computed at (allergies, prescriptions, date of birth, pregnancy) */
  contextVersion: z.number().int(),
});
export type Assessment = z.infer<typeof Assessment>;

/** Pregnancy status, set by a doctor: NEWS2 is not validated in pregnancy. */
export const Pregnancy = z
  .strictObject({
    status: z.enum(['pregnant', 'not-pregnant', 'unknown']),
    /** completed weeks, only when pregnant */
    gestationWeeks: z.number().int().min(1).max(45).nullable().optional(),
  })
  .refine((p) => p.status === 'pregnant' || p.gestationWeeks == null, {
    message: 'Gestation is recorded only for a pregnancy',
    path: ['gestationWeeks'],
  });
export type Pregnancy = z.infer<typeof Pregnancy>;

/** When a summary was generated, from what, and whether the model rewrote its narrative. */
export const SummaryInfo = z.object({
  generatedAt: z.string(),
  /** the patient's clinical version it was generated at */
  contextVersion: z.number().int(),
  /** set when the model's narrative was kept: "Narrative rewritten by <model> at <time>" */
  rewrittenBy: z.string().nullable(),
  /** regenerated on read because its inputs changed after the earlier one ("Out of date — regenerated <time>") */
  regeneratedOutOfDate: z.boolean(),
  /** when the out-of-date one had been generated (null: not known, a summary from before times were kept) */
  previousGeneratedAt: z.string().nullable(),
});
export type SummaryInfo = z.infer<typeof SummaryInfo>;
