import { z } from 'zod';
import { CalendarDate, EntityId, RequiredText, Text, page } from './common';
import { ALLERGY_NOTE_MAX } from './constants';
import { MedicationAlert, OverrideReason } from './medication-safety';

/** The longest course a duration may state (ten years); longer is long-term. */
export const MAX_COURSE_DAYS = 3650;
export const COURSE_CONFLICT_ERROR = 'Give a duration, an end date or long-term: only one';

/**
 * POST /prescription/{patientId}: drug, dosage, route and frequency required (SPEC §5). How long it
 * runs: `durationDays`, `endDate` (the last day, in the clinic's time zone) or `longTerm` — at most
 * one; with none, a duration written in the frequency ("bd for 7 days") sets it, and a prescription
 * with no end stated stays active until it is stopped.
 */
export const PrescriptionFields = z.strictObject({
  prescribedDrug: RequiredText(),
  dosage: RequiredText(),
  administrationRoute: RequiredText(),
  dosageFrequency: RequiredText(),
  allergies: z.array(Text(ALLERGY_NOTE_MAX).min(1)).max(50).default([]),
  durationDays: z.number().int().min(1).max(MAX_COURSE_DAYS).optional(),
  endDate: CalendarDate.optional(),
  longTerm: z.boolean().optional(),
  /** why the doctor proceeds past a stop alert; required when the check finds one (else 409), kept with the prescription */
  overrideReason: OverrideReason.optional(),
});
/** The fields (a form extends them) with the rule that a course is stated one way at most. */
export const oneCourse = <S extends z.ZodType<{ durationDays?: number; endDate?: string; longTerm?: boolean }>>(schema: S): S =>
  schema.refine((p) => [p.durationDays !== undefined, p.endDate !== undefined, p.longTerm === true].filter(Boolean).length <= 1, {
    error: COURSE_CONFLICT_ERROR,
    path: ['durationDays'],
  });
export const PrescriptionCreate = oneCourse(PrescriptionFields);
export type PrescriptionCreate = z.input<typeof PrescriptionCreate>;

export const PRESCRIPTION_STATUSES = ['active', 'completed', 'stopped'] as const;

/** The stop alerts a doctor proceeded past, and why: part of the prescription, shown to both roles. */
export const PrescriptionOverride = z.object({
  reason: z.string(),
  /** the prescribing doctor's name */
  by: z.string(),
  at: z.string(),
  alerts: z.array(MedicationAlert),
});
export type PrescriptionOverride = z.infer<typeof PrescriptionOverride>;

export const Prescription = z.object({
  _id: EntityId,
  prescribedDrug: z.string(),
  dosage: z.string(),
  administrationRoute: z.string(),
  dosageFrequency: z.string(),
  allergies: z.array(z.string()),
  /** the prescribing doctor's name */
  assignedBy: z.string(),
  patientId: EntityId,
  /** the name of the patient it is for, so a doctor's list can say whose it is */
  patientName: z.string(),
  createdAt: z.string(),
  /** active until it ends or is stopped; completed after its last day (the clinic's time zone) */
  status: z.enum(PRESCRIPTION_STATUSES),
  /** the last day of the course (YYYY-MM-DD); null: long-term, or no end stated */
  endsOn: z.string().nullable(),
  longTerm: z.boolean(),
  stopped: z.object({ at: z.string(), by: z.string(), reason: z.string() }).nullable(),
  override: PrescriptionOverride.nullable(),
  /** drug texts the check could not recognise: allergy and interaction checks were not performed for them */
  uncoded: z.array(z.string()),
});
export type Prescription = z.infer<typeof Prescription>;

export const PrescriptionList = page(Prescription);
/**
 * The prescribing check's alerts, stop first: the patient's allergies (structured and read from the
 * free-text notes) and interactions with the patient's active medications (not stopped, not past
 * their last day).
 */
export const PrescriptionCreated = Prescription.extend({ alerts: z.array(MedicationAlert) });

/** 409 of a create whose check found a stop alert and no override reason was given: nothing is written. */
export const OverrideRequired = z.object({ error: z.string(), alerts: z.array(MedicationAlert) });
export type OverrideRequired = z.infer<typeof OverrideRequired>;

/** POST /prescription/{id}/stop: the assigned doctor stops an active prescription, with a reason. */
export const PrescriptionStop = z.strictObject({
  reason: Text(500).min(3, { error: 'Give a reason of at least 3 characters' }),
});
export type PrescriptionStop = z.input<typeof PrescriptionStop>;
export const PRESCRIPTION_NOT_ACTIVE = 'This prescription is no longer active';
export const END_DATE_PAST = 'The end date cannot be before today';

/** GET /drug-alerts/{patientId}?drug=…: the warning a form shows before Finish. */
export const DrugAlertQuery = z.strictObject({
  drug: Text(200).min(1),
  /** allergies typed into the form, comma-separated, checked with the recorded ones */
  allergies: Text(10 * ALLERGY_NOTE_MAX).optional(),
});
export const DrugAlertResponse = z.object({
  alerts: z.array(MedicationAlert),
  /** the allergy substances checked (on file and typed) */
  allergies: z.array(z.string()),
  /** the drugs the interaction check compared with: the prescriptions on file still active */
  activeMedications: z.array(z.string()),
  /** drug texts not recognised (the drug asked about, or an active medication): not checked */
  uncoded: z.array(z.string()),
  /** how many lesser alerts were left out (at most MAX_ALERTS are listed, stops first) */
  omitted: z.number().int(),
});
