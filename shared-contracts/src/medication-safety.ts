import { z } from 'zod';
import { EntityId, RequiredText, Text } from './common';

/*
 * Medication safety (issue 13): structured allergies in the shape of FHIR R4 AllergyIntolerance
 * (https://hl7.org/fhir/R4/allergyintolerance.html) and the alerts a prescribing form shows.
 * The api's clinical module (api/src/clinical) owns the vocabulary and the rules; this file only
 * says what crosses the wire.
 */

export const ALLERGY_TYPES = ['allergy', 'intolerance'] as const;
export const ALLERGY_CATEGORIES = ['medication', 'food', 'environment'] as const;
export const ALLERGY_CRITICALITIES = ['low', 'high', 'unable-to-assess'] as const;
export const REACTION_SEVERITIES = ['mild', 'moderate', 'severe'] as const;
export const ALLERGY_CLINICAL_STATUSES = ['active', 'inactive', 'resolved'] as const;
export const ALLERGY_VERIFICATION_STATUSES = ['unconfirmed', 'confirmed', 'refuted'] as const;

/** What the patient is allergic to: a vocabulary entry (`code`), or free text marked uncoded. */
export const AllergySubstance = z.object({
  text: RequiredText(200),
  /** the vocabulary's id of the ingredient, class or combination product ('amoxicillin', 'class:penicillins',
   *  'product:co-codamol'); absent = uncoded */
  code: z.string().optional(),
});
export type AllergySubstance = z.infer<typeof AllergySubstance>;

export const AllergyReaction = z.object({
  manifestation: RequiredText(200),
  severity: z.enum(REACTION_SEVERITIES).optional(),
});
export type AllergyReaction = z.infer<typeof AllergyReaction>;

export const STATUS_REASON_REQUIRED = 'Say why this allergy is refuted, inactive or resolved';

/** What a doctor (or, for a report, a patient) writes: the fields (forms extend these) … */
export const AllergyIntoleranceFields = z.strictObject({
  substance: z.strictObject({ text: RequiredText(200), code: Text(100).optional() }),
  type: z.enum(ALLERGY_TYPES),
  category: z.enum(ALLERGY_CATEGORIES),
  criticality: z.enum(ALLERGY_CRITICALITIES),
  reactions: z
    .array(z.strictObject({ manifestation: RequiredText(200), severity: z.enum(REACTION_SEVERITIES).optional() }))
    .max(10)
    .default([]),
  clinicalStatus: z.enum(ALLERGY_CLINICAL_STATUSES),
  verificationStatus: z.enum(ALLERGY_VERIFICATION_STATUSES),
  note: Text(1000).optional(),
  /** why the entry is refuted, inactive or resolved: required then (the audit log keeps it) */
  statusReason: Text(500).optional(),
});

/** … and the rule every write keeps: an entry leaves force only with a reason. */
export const statusReasonGiven = <
  S extends z.ZodType<{ verificationStatus: string; clinicalStatus: string; statusReason?: string }>,
>(
  schema: S,
): S =>
  schema.refine((w) => (w.verificationStatus === 'refuted' || w.clinicalStatus !== 'active' ? !!w.statusReason : true), {
    error: STATUS_REASON_REQUIRED,
    path: ['statusReason'],
  });

export const AllergyIntoleranceWrite = statusReasonGiven(AllergyIntoleranceFields);
export type AllergyIntoleranceWrite = z.input<typeof AllergyIntoleranceWrite>;

export const AllergyIntolerance = z.object({
  /** absent for an entry read from free text that no doctor has reviewed yet */
  _id: EntityId.optional(),
  patientId: EntityId,
  substance: AllergySubstance,
  type: z.enum(ALLERGY_TYPES),
  category: z.enum(ALLERGY_CATEGORIES),
  criticality: z.enum(ALLERGY_CRITICALITIES),
  reactions: z.array(AllergyReaction),
  clinicalStatus: z.enum(ALLERGY_CLINICAL_STATUSES),
  verificationStatus: z.enum(ALLERGY_VERIFICATION_STATUSES),
  note: z.string().optional(),
  /** why it was refuted, made inactive or resolved */
  statusReason: z.string().optional(),
  /** an entry read from free text that the wording puts in doubt ("negative challenge to …", family history,
   *  "read as amoxicillin or ampicillin"): shown and checked as an allergy until a doctor resolves it */
  review: z.string().optional(),
  /** 'structured' = written on the allergy list; otherwise read from a record's or a prescription's free text */
  source: z.enum(['structured', 'record', 'prescription']),
  /** the free text as written, for entries read from it */
  sourceText: z.string().optional(),
  recordedBy: z.object({ role: z.enum(['patient', 'doctor']), name: z.string() }),
  recordedAt: z.string(),
});
export type AllergyIntolerance = z.infer<typeof AllergyIntolerance>;

export const ALERT_KINDS = ['allergy', 'cross-reactivity', 'intolerance', 'interaction'] as const;
/** stop: needs an override reason to proceed; warning: shown, proceeds; info: shown, quiet. */
export const ALERT_SEVERITIES = ['stop', 'warning', 'info'] as const;

/** One alert of the prescribing check (drug–allergy or drug–drug). */
export const MedicationAlert = z.object({
  kind: z.enum(ALERT_KINDS),
  severity: z.enum(ALERT_SEVERITIES),
  /** the allergy's substance, or the co-prescribed drug, as written */
  substance: z.string(),
  /** the part of the prescribed drug's text that matched */
  matchedText: z.string(),
  /** the vocabulary's name when matched by misspelling, abbreviation or combination: "read as amoxicillin" */
  readAs: z.string().optional(),
  message: z.string(),
  /** the reference the rule comes from */
  source: z.string(),
});
export type MedicationAlert = z.infer<typeof MedicationAlert>;

/** A stop alert is passed only with a reason, which the audit log keeps. */
export const OverrideReason = Text(500).min(3, { error: 'Give a reason of at least 3 characters' });

export const OVERRIDE_REQUIRED_ERROR = 'A stop alert needs an override reason';
