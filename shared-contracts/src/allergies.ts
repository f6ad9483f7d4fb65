import { z } from 'zod';
import { EntityId, RequiredText, Text } from './common';
import { AllergyIntolerance, AllergyIntoleranceFields, statusReasonGiven } from './medication-safety';

/*
 * The allergy list of a patient (issue 13 item 1): structured entries (FHIR AllergyIntolerance)
 * and the entries read from the free-text allergy notes of their records and prescriptions that
 * no doctor has reviewed yet. Both count for every alert.
 */

export const AllergyIdParams = z.strictObject({ id: EntityId });

/**
 * A doctor's new entry. `reviews`: the free-text note (an unreviewed entry's `sourceText`) this entry
 * confirms, edits or refutes; from then on that note no longer counts on its own.
 */
export const AllergyIntoleranceCreate = statusReasonGiven(
  AllergyIntoleranceFields.extend({
    reviews: Text(2000).min(1, { error: 'Required' }).optional(),
  }),
);
export type AllergyIntoleranceCreate = z.input<typeof AllergyIntoleranceCreate>;

export const REPORT_UNCONFIRMED_ERROR = 'An allergy a patient reports stays unconfirmed until a doctor confirms it';

/** A patient's report of an allergy: always unconfirmed, active unless said otherwise. */
export const AllergyReportFields = AllergyIntoleranceFields.extend({
  criticality: AllergyIntoleranceFields.shape.criticality.default('unable-to-assess'),
  clinicalStatus: AllergyIntoleranceFields.shape.clinicalStatus.default('active'),
  verificationStatus: z.literal('unconfirmed', { error: REPORT_UNCONFIRMED_ERROR }).default('unconfirmed'),
});
export const AllergyReport = statusReasonGiven(AllergyReportFields);
export type AllergyReport = z.input<typeof AllergyReport>;

/** Structured entries newest first, then the unreviewed free-text ones (no `_id`, always unconfirmed). */
export const AllergyList = z.object({
  items: z.array(AllergyIntolerance),
  /** every free-text allergy note on file, verbatim (a note that names no substance, "NKDA", included) */
  notes: z.array(
    z.object({
      text: z.string(),
      source: z.enum(['record', 'prescription']),
      recordedBy: z.string(),
      recordedAt: z.string(),
    }),
  ),
});
export type AllergyList = z.infer<typeof AllergyList>;

export const ALLERGY_NOT_FOUND = 'Allergy not found';
export const ALLERGY_NOTE_NOT_FOUND = "No such allergy note in this patient's records or prescriptions";
export const ALLERGY_NOTE_REVIEWED = 'This allergy note has already been reviewed';

/** GET /allergy-substances?q=: the vocabulary's names starting with (or, 6+ letters, close to) what is typed. */
export const SubstanceSuggestionQuery = z.strictObject({
  q: RequiredText(100),
  limit: z.coerce.number().int().min(1).max(20).default(10),
});
export const SubstanceSuggestions = z.object({
  items: z.array(
    z.object({
      /** the code the api stores for this name ('amoxicillin', 'class:penicillins', 'product:co-codamol') */
      code: z.string(),
      name: z.string(),
      /** the way of writing it that matched ('augmentin', 'pcn') */
      matched: z.string(),
      kind: z.enum(['class', 'ingredient', 'product']),
    }),
  ),
});
export type SubstanceSuggestions = z.infer<typeof SubstanceSuggestions>;
