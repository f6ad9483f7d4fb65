import { z } from 'zod';
import { EntityId } from './common';

/**
 * A doctor's unsent work on a long form, kept by the api as it is typed so that nothing is lost to
 * an automatic sign-out, a closed tab or another device, and offered back after the next sign-in.
 * One draft per doctor, form and patient; it lives only while the doctor is assigned to the patient.
 */
export const DRAFT_FORMS = ['medical-record', 'prescription'] as const;
export const DraftForm = z.enum(DRAFT_FORMS);
export type DraftForm = z.infer<typeof DraftForm>;

/** What the notice calls each form's draft: "Unfinished record for Maria Lopez". */
export const DRAFT_FORM_NAMES: Record<DraftForm, string> = {
  'medical-record': 'record',
  prescription: 'prescription',
};

/** Where a draft is resumed: the form of that patient, at the step the doctor left. */
export const DRAFT_FORM_PATHS: Record<DraftForm, (patientId: string) => string> = {
  'medical-record': (patientId) => `/medical-record/create/${patientId}`,
  prescription: (patientId) => `/create-prescription/${patientId}`,
};

/** A draft holds what was typed, valid or not (it is checked when sent), up to this many characters of JSON. */
export const DRAFT_MAX_CHARS = 200_000;
export const DRAFT_TOO_LARGE = `A draft can hold at most ${DRAFT_MAX_CHARS} characters`;

export const DraftParams = z.strictObject({ form: DraftForm, patientId: EntityId });

export const DRAFT_BAD_TEXT = 'A draft may not contain NUL characters or broken Unicode';

/** Every key and string in a JSON value: what the database must be able to store as text. */
function* textsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* textsOf(v);
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) {
      yield k;
      yield* textsOf(v);
    }
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/** The form's values as typed: a JSON object, kept as it is. */
export const DraftValues = z
  .record(z.string(), z.unknown())
  .refine((values) => JSON.stringify(values).length <= DRAFT_MAX_CHARS, { error: DRAFT_TOO_LARGE })
  .refine((values) => [...textsOf(values)].every(storable), { error: DRAFT_BAD_TEXT });

/**
 * PUT /doctor/drafts/{form}/{patientId}: the values and the step (0 = the first) the doctor is on.
 * `basedOn`: the draft this page last saw (its `savedAt`; null: none) — when the draft on file is
 * another (saved from another tab or device since), the save is refused (409 DRAFT_CHANGED) rather
 * than silently replacing it. Left out: saved whatever is on file (the doctor chose this page's version).
 */
export const DraftSave = z.strictObject({
  values: DraftValues,
  step: z.number().int().min(0).max(50),
  basedOn: z.iso.datetime().nullable().optional(),
});

export const DRAFT_CHANGED = 'This draft was changed in another tab or on another device since this page opened it';
export type DraftSave = z.infer<typeof DraftSave>;

/** One draft without its values: what the notice after sign-in lists. */
export const DraftSummary = z.object({
  form: DraftForm,
  patientId: EntityId,
  step: z.number().int().min(0),
  savedAt: z.string(),
});
export type DraftSummary = z.infer<typeof DraftSummary>;

export const Draft = DraftSummary.extend({ values: z.record(z.string(), z.unknown()) });
export type Draft = z.infer<typeof Draft>;

/** GET /doctor/drafts: the doctor's drafts, the most recently saved first. */
export const DraftList = z.object({ drafts: z.array(DraftSummary) });
export type DraftList = z.infer<typeof DraftList>;

/** GET /doctor/drafts/{form}/{patientId}: the draft, or null when there is none. */
export const DraftAnswer = z.object({ draft: Draft.nullable() });
export type DraftAnswer = z.infer<typeof DraftAnswer>;

export const DraftSaved = z.object({ savedAt: z.string() });
