import { z } from 'zod';
import { Text } from './common';
import { ALLERGY_NOTE_MAX, MODES_OF_ADMISSION } from './constants';
import {
  checkBloodPressure,
  OXYGEN_SATURATION_RANGE,
  PULSE_RANGE,
  RESPIRATORY_RATE_RANGE,
  SIGNED_OR_EXPONENT,
  signedOrExponentMessage,
} from './vital-signs';

/*
 * The medical record's fields, declared once. Each field says where it sits in the creation
 * payload (its key in the tree below), its label, the form step it is on, the detail-view section
 * it is shown in, its kind and its validation. The zod schemas (records.ts), the api's stored
 * types, the eight-step form, the detail view and the summary's labels are all derived from it:
 * adding a field is one line here (plus a migration only if it needs a column; sections are jsonb).
 */

/** The eight steps of the record form (SPEC §5), in order. */
export const RECORD_STEPS = [
  'Record',
  'Presenting complaint',
  'Systemic history',
  'Past history',
  'Personal history',
  'General physical examination',
  'System examination',
  'Investigations and treatment',
] as const;
export type RecordStep = (typeof RECORD_STEPS)[number];

/** The sections of a record's detail view that show entered fields, in order (biodata and doctor come from the server). */
export const RECORD_SECTIONS = ['History', 'Systemic history', 'Examination', 'Investigations', 'Treatment'] as const;
export type RecordSection = (typeof RECORD_SECTIONS)[number];

interface FieldCommon {
  /** the form's label */
  label: string;
  step: RecordStep;
  /** the detail-view section; none for the title (the record's heading) and the mode of admission (in biodata) */
  section?: RecordSection;
  /** a shorter label for the read-only views (detail view and summary) */
  shortLabel?: string;
  /** the summary's label where it differs from the short label */
  summaryLabel?: string;
  /** the unit the value is in, where it has one */
  unit?: string;
  placeholder?: string;
  /** a line of guidance shown under the form's field */
  hint?: string;
  /**
   * A measurement (a vital sign): the form starts it empty, and empty means "not measured", shown
   * as such, never scored.
   */
  measurement?: boolean;
  /**
   * The plausible range: the form asks the doctor to confirm a value outside it (then records it),
   * and asks nothing inside it. Never a limit (the api's are wider). In the field's unit: °C for a
   * temperature, the systolic for a blood pressure.
   */
  confirmOutside?: readonly [number, number];
  /** the form's text of each option, where it differs from the option */
  optionLabels?: Record<string, string>;
  /** the read-only views' text of each stored value (String(value) → text), where it differs */
  valueLabels?: Record<string, string>;
  /**
   * The measurement (a field of the same group, by key) this one qualifies: shown only beside a
   * value of it (the SpO2 scale means nothing without an SpO2, and is stored as 1 by default).
   */
  qualifies?: string;
}

/** One line ('text') or several ('note') of free text, trimmed. */
export interface TextSpec extends FieldCommon {
  max: number;
  /** refused when empty ('<label> is required'); otherwise the default is used when absent */
  required?: boolean;
  default?: string;
}
export interface NumberSpec extends FieldCommon {
  min: number;
  max: number;
  default: number;
}
export interface SelectSpec<T extends string> extends FieldCommon {
  options: readonly [T, ...T[]];
}

type Kind = 'text' | 'note' | 'number' | 'select' | 'datetime';

/** A declared field: its description and the two zod schemas derived from it (payload and stored record). */
export type RecordField<S extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> = FieldCommon & {
  kind: Kind;
  /** the browser marks it required; the schema refuses it missing or empty */
  required: boolean;
  min?: number;
  max?: number;
  default?: string | number;
  options?: readonly string[];
  /** validates the field in the creation payload */
  schema: S;
  /** the field as a stored record returns it */
  read: R;
};

function text(kind: 'text' | 'note', spec: TextSpec & { required: true }): RecordField<z.ZodString, z.ZodString>;
function text(kind: 'text' | 'note', spec: TextSpec): RecordField<z.ZodDefault<z.ZodString>, z.ZodString>;
function text(kind: 'text' | 'note', spec: TextSpec): RecordField {
  const schema = spec.required
    ? Text(spec.max).min(1, { error: `${spec.label} is required` })
    : Text(spec.max).default(spec.default ?? '');
  return { ...spec, kind, required: spec.required ?? false, schema, read: z.string() };
}

function line(spec: TextSpec & { required: true }): RecordField<z.ZodString, z.ZodString>;
function line(spec: TextSpec): RecordField<z.ZodDefault<z.ZodString>, z.ZodString>;
function line(spec: TextSpec): RecordField {
  return text('text', spec);
}

/** A measurement typed as text with its unit (temperature, glucose): a signed or exponent number is refused (400). */
function plainNumberText(spec: TextSpec): RecordField<z.ZodDefault<z.ZodString>, z.ZodString> {
  const schema = Text(spec.max)
    .refine((value) => !SIGNED_OR_EXPONENT.test(value), { error: signedOrExponentMessage(spec.label) })
    .default(spec.default ?? '');
  return { ...line(spec), schema };
}

/** Field constructors, one per kind. A future kind (boolean, datetime, …) is one more constructor here. */
export const field = {
  /** one line of text */
  text: line,
  /** free clinical text: a history, a finding, a result (up to 4000 characters unless said) */
  note: (spec: Omit<TextSpec, 'max' | 'required'> & { max?: number }) => text('note', { max: 4000, ...spec }),
  /** a number typed in the browser (coerced), with a lower and an upper bound and a default */
  number: (spec: NumberSpec): RecordField<z.ZodDefault<z.ZodCoercedNumber>, z.ZodNumber> => ({
    ...spec,
    kind: 'number',
    required: true,
    schema: z.coerce
      .number({ error: `${spec.label} must be a number` })
      .min(spec.min, { error: `${spec.label} must be at least ${spec.min}` })
      .max(spec.max)
      .default(spec.default),
    read: z.number(),
  }),
  /**
   * A measured number (a vital sign): optional — absent, empty or null is "not measured" (stored
   * as null) — and within physiological bounds when given.
   */
  vital: (
    spec: FieldCommon & { min: number; max: number },
  ): RecordField<z.ZodDefault<z.ZodType<number | null, unknown>>, z.ZodOptional<z.ZodNullable<z.ZodNumber>>> => ({
    ...spec,
    kind: 'number',
    required: false,
    measurement: true,
    schema: z
      .preprocess(
        (v) => (v === '' || v === null || v === undefined ? null : v),
        z.coerce
          .number({ error: `${spec.label} must be a number` })
          .min(spec.min, { error: `${spec.label} must be at least ${spec.min}` })
          .max(spec.max, { error: `${spec.label} must be at most ${spec.max}` })
          .nullable(),
      )
      .default(null) as z.ZodDefault<z.ZodType<number | null, unknown>>,
    read: z.number().nullish(),
  }),
  /**
   * One of a fixed list, optional: '' or absent is "not recorded" (null), or `fallback`. `values`
   * maps the form's option to the stored value where they differ (a boolean, a number). `default`
   * is the option the form starts on (only for a choice that is no measurement itself).
   */
  choice: <const T extends string, V = T>(
    spec: FieldCommon & {
      options: readonly [T, ...T[]];
      values?: Record<T, V>;
      fallback?: V;
      default?: T;
      read: z.ZodType<V>;
    },
  ): RecordField<z.ZodType<V | null, unknown>, z.ZodOptional<z.ZodNullable<z.ZodType<V>>>> => {
    const values = spec.values ?? (Object.fromEntries(spec.options.map((o) => [o, o])) as unknown as Record<T, V>);
    const allowed = [...spec.options.map((o) => values[o])];
    const fallback = spec.fallback ?? null;
    return {
      ...spec,
      valueLabels: Object.fromEntries(spec.options.map((o) => [String(values[o]), spec.optionLabels?.[o] ?? o])),
      kind: 'select',
      required: false,
      schema: z.preprocess(
        (v) => {
          if (v === '' || v === null || v === undefined) return fallback;
          // the form sends the option, the api may also get the value itself
          return typeof v === 'string' && Object.hasOwn(values, v) ? values[v as T] : v;
        },
        z
          .custom<V | null>((v) => v === null || allowed.includes(v as V), {
            error: `${spec.label} must be one of: ${spec.options.map((o) => spec.optionLabels?.[o] ?? o).join(', ')}`,
          })
          .optional()
          .transform((v) => v ?? null),
      ) as z.ZodType<V | null, unknown>,
      read: spec.read.nullish(),
    };
  },
  /** a local date and time, "YYYY-MM-DDTHH:MM" (the clinic's time zone), or '' */
  datetime: (spec: FieldCommon): RecordField<z.ZodDefault<z.ZodString>, z.ZodOptional<z.ZodString>> => ({
    ...spec,
    kind: 'datetime',
    required: false,
    schema: z
      .string()
      .trim()
      .regex(/^(?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2})?$/, { error: `${spec.label} must be a date and time (YYYY-MM-DDTHH:MM)` })
      .default(''),
    read: z.string().optional(),
  }),
  /** one of a fixed list; required (no default) */
  select: <const T extends string>(spec: SelectSpec<T>): RecordField<z.ZodEnum<{ [K in T]: K }>, z.ZodString> => ({
    ...spec,
    kind: 'select',
    required: true,
    // A person reads this beside the field: name the choices rather than zod's "Invalid option".
    schema: z.enum(spec.options, { error: `${spec.label} must be one of: ${spec.options.join(', ')}` }),
    read: z.string(),
  }),
};

const history = (step: RecordStep, label: string, labels: Pick<FieldCommon, 'shortLabel' | 'summaryLabel'> = {}) =>
  field.note({ step, section: 'History', label, ...labels });
const systemic = (label: string) => field.note({ step: 'Systemic history', section: 'Systemic history', label });
const physicalExamination = 'General physical examination';
const system = (label: string) => field.note({ step: 'System examination', section: 'Examination', label });
const investigation = (label: string) => field.note({ step: 'Investigations and treatment', section: 'Investigations', label });
const treatment = (label: string, shortLabel: string) =>
  field.text({ step: 'Investigations and treatment', section: 'Treatment', label, shortLabel, max: 200 });

/**
 * THE RECORD. Keys are the creation payload's (POST /medicalhistory/{patientId}, SPEC §3); a stored
 * record returns medicalHistory's contents at its top level. Declaration order is the form's order.
 */
export const RECORD_FIELDS = {
  medicalHistory: {
    title: field.text({ step: 'Record', label: 'Title', max: 200, required: true }),
    biodata: {
      modeOfAdmission: field.select({ step: 'Record', label: 'Mode of admission', options: MODES_OF_ADMISSION }),
    },
    historyOfPresentingComplaints: history('Presenting complaint', 'History of presenting complaints', {
      shortLabel: 'Presenting complaints',
    }),
    historyOfPresentingIllness: history('Presenting complaint', 'History of presenting illness', {
      shortLabel: 'Presenting illness',
      summaryLabel: 'History of presenting illness',
    }),
    systemicHistory: {
      centralNervousSystem: systemic('Central nervous system'),
      cardiovascularSystem: systemic('Cardiovascular system'),
      gastrointestinalSystem: systemic('Gastrointestinal system'),
      genitourinarySystem: systemic('Genitourinary system'),
      musculoskeletalSystem: systemic('Musculoskeletal system'),
    },
    pastSurgicalHistory: history('Past history', 'Past surgical history'),
    pastMedicalHistory: history('Past history', 'Past medical history'),
    familyHistory: history('Past history', 'Family history'),
    drugHistory: history('Past history', 'Drug history'),
    // an allergy note is read on every prescribing check: bounded as on a prescription
    allergies: field.note({ step: 'Past history', section: 'History', label: 'Allergies', max: ALLERGY_NOTE_MAX }),
    gynecologicalHistory: history('Personal history', 'Gynecological history', { summaryLabel: 'Gynaecological history' }),
    occupationalHistory: history('Personal history', 'Occupational history'),
    travelHistory: history('Personal history', 'Travel history'),
    socioeconomicHistory: history('Personal history', 'Socioeconomic history', { summaryLabel: 'Social history' }),
  },
  examination: {
    generalPhysicalExamination: {
      /*
       * Plausible ranges (confirmOutside), the one place they are declared: outside them a reading
       * is far likelier a slip than real, so the form asks the doctor to confirm it; inside them it
       * asks nothing, as a warning on a normal pulse of 72 trains doctors to click through warnings.
       * They lie beyond NEWS2's most abnormal bands (RCP 2017 chart 1: pulse ≤ 40 or ≥ 131, RR ≤ 8
       * or ≥ 25, systolic ≤ 90 or ≥ 220, temperature ≤ 35.0 or ≥ 39.1 °C), so only the far end of
       * real extremes is asked about, and the api's limits are wider still: a pulse of 25 (complete
       * heart block) or a rate of 4 (opioid toxicity) is confirmed once and recorded.
       */
      /** "systolic/diastolic" in mmHg, e.g. "128/84"; anything else is refused (400) */
      bloodPressure: {
        ...field.text({
          step: physicalExamination,
          section: 'Examination',
          label: 'Blood pressure',
          unit: 'mmHg',
          max: 20,
          placeholder: '120/80',
          measurement: true,
          confirmOutside: [60, 250],
        }),
        schema: Text(20)
          .superRefine((text, ctx) => {
            if (!text) return;
            const bp = checkBloodPressure(text);
            if (!bp.ok) ctx.addIssue({ code: 'custom', message: bp.message });
          })
          .default(''),
      },
      pulse: field.vital({
        step: physicalExamination,
        section: 'Examination',
        label: 'Pulse',
        unit: '/min',
        min: PULSE_RANGE[0],
        max: PULSE_RANGE[1],
        confirmOutside: [30, 200],
      }),
      /** °C as typed; °F only with its unit ("98.6 °F"). SPEC §5's default "9" is deliberately gone. */
      temperature: plainNumberText({
        step: physicalExamination,
        section: 'Examination',
        label: 'Temperature',
        unit: '°C',
        max: 10,
        measurement: true,
        confirmOutside: [34, 42],
        hint: 'In °C; a value in °F needs its unit (e.g. 98.6 °F).',
      }),
      respiratoryRate: field.vital({
        step: physicalExamination,
        section: 'Examination',
        label: 'Respiratory rate',
        unit: '/min',
        min: RESPIRATORY_RATE_RANGE[0],
        max: RESPIRATORY_RATE_RANGE[1],
        confirmOutside: [6, 50],
      }),
      /** NEWS2 (RCP 2017 chart 1): the oxygen saturation, the scale it is scored on, air or oxygen, consciousness */
      oxygenSaturation: field.vital({
        step: physicalExamination,
        section: 'Examination',
        label: 'Oxygen saturation (SpO2)',
        shortLabel: 'SpO2',
        unit: '%',
        min: OXYGEN_SATURATION_RANGE[0],
        max: OXYGEN_SATURATION_RANGE[1],
      }),
      spo2Scale: field.choice({
        step: physicalExamination,
        section: 'Examination',
        label: 'SpO2 scale',
        measurement: true,
        qualifies: 'oxygenSaturation',
        options: ['1', '2'],
        values: { '1': 1, '2': 2 },
        // RCP 2017: scale 1 unless a clinician has decided on scale 2 (a choice of chart, not a
        // reading: the form starts on it, and it means nothing without an SpO2)
        fallback: 1,
        default: '1',
        // 1 or 2 (a plain number: OpenAPI 3.0 has no nullable union)
        read: z.number(),
        optionLabels: { '1': 'Scale 1', '2': 'Scale 2 (hypercapnic respiratory failure)' },
        hint: 'RCP 2017: use Scale 2 only for confirmed hypercapnic respiratory failure with a prescribed target of 88–92 %, on the decision of a competent clinician, recorded in the notes. Otherwise Scale 1.',
      }),
      supplementalOxygen: field.choice({
        step: physicalExamination,
        section: 'Examination',
        label: 'Air or oxygen',
        measurement: true,
        options: ['air', 'oxygen'],
        values: { air: false, oxygen: true },
        read: z.boolean(),
        optionLabels: { air: 'Air', oxygen: 'Supplemental oxygen' },
      }),
      consciousness: field.choice({
        step: physicalExamination,
        section: 'Examination',
        label: 'Consciousness (ACVPU)',
        shortLabel: 'Consciousness',
        measurement: true,
        options: ['A', 'C', 'V', 'P', 'U'],
        read: z.enum(['A', 'C', 'V', 'P', 'U']),
        optionLabels: {
          A: 'A: alert',
          C: 'C: new confusion',
          V: 'V: responds to voice',
          P: 'P: responds to pain',
          U: 'U: unresponsive',
        },
      }),
      observedAt: field.datetime({ step: physicalExamination, section: 'Examination', label: 'Observation time' }),
      /** with its unit: "5.4 mmol/L" or "97 mg/dL" (the form refuses a bare number; the engine never guesses one) */
      bloodSugarLevel: plainNumberText({
        step: physicalExamination,
        section: 'Examination',
        label: 'Blood sugar level',
        max: 20,
        measurement: true,
        placeholder: '5.4 mmol/L',
        hint: 'With its unit: mmol/L or mg/dL.',
      }),
      Notes: field.note({ step: physicalExamination, section: 'Examination', label: 'Notes' }),
    },
    respiratorySystem: system('Respiratory system'),
    centralNervousSystem: system('Central nervous system'),
    cardiovascularSystem: system('Cardiovascular system'),
    gastrointestinalSystem: system('Gastrointestinal system'),
  },
  investigations: {
    completeBloodCount: investigation('Complete blood count'),
    liverFunctionTests: investigation('Liver function tests'),
    renalFunctionTests: investigation('Renal function tests'),
    vitalMarkers: investigation('Vital markers'),
    serumElectrolytes: investigation('Serum electrolytes'),
    prothrombinTime: investigation('Prothrombin time'),
    activatedPartialThromboplastinTime: investigation('Activated partial thromboplastin time'),
    electrocardiogram: investigation('Electrocardiogram'),
    chestXRay: investigation('Chest X-ray'),
  },
  treatment: {
    prescribedDrug: treatment('Prescribed drug', 'Drug'),
    dosage: treatment('Dosage', 'Dosage'),
    administrationRoute: treatment('Administration route', 'Route'),
    dosageFrequency: treatment('Dosage frequency', 'Frequency'),
  },
};

// ------------------------------------------------------------------ derivations

/** A group of fields: the payload's nesting. */
export interface RecordFieldGroup {
  [key: string]: RecordField | RecordFieldGroup;
}

const isField = (node: RecordField | RecordFieldGroup): node is RecordField => typeof node.kind === 'string';

/** The zod object a group validates with: strict, like every payload of the api. */
export type PayloadSchemaOf<T> = z.ZodObject<
  { -readonly [K in keyof T]: T[K] extends RecordField<infer S> ? S : PayloadSchemaOf<T[K]> },
  z.core.$strict
>;
/** The zod object a stored group is read with. */
export type ReadSchemaOf<T> = z.ZodObject<
  { -readonly [K in keyof T]: T[K] extends RecordField<z.ZodType, infer R> ? R : ReadSchemaOf<T[K]> },
  z.core.$strip
>;

const mapGroup = (
  group: RecordFieldGroup,
  leaf: (f: RecordField) => z.ZodType,
  object: (shape: z.ZodRawShape) => z.ZodType,
): z.ZodType =>
  object(Object.fromEntries(Object.entries(group).map(([k, v]) => [k, isField(v) ? leaf(v) : mapGroup(v, leaf, object)])));

/** The creation schema of a group of fields. */
export const payloadSchemaOf = <T extends RecordFieldGroup>(group: T) =>
  mapGroup(group, (f) => f.schema, z.strictObject) as PayloadSchemaOf<T>;

/** The read schema of a stored group of fields. */
export const readSchemaOf = <T extends RecordFieldGroup>(group: T) => mapGroup(group, (f) => f.read, z.object) as ReadSchemaOf<T>;

/** "a.b.c" for every field of a tree: the field's name in the form, its path in the payload. */
export type RecordFieldName<T = typeof RECORD_FIELDS, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends RecordField ? `${P}${K}` : RecordFieldName<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A field with its place: `name` in the payload and the form, `readPath` in a stored record. */
export type PlacedRecordField<N extends string = RecordFieldName> = RecordField & { name: N; readPath: string[] };

/** Every field of a tree in declaration order (the form's order). */
export function fieldsOf<T extends RecordFieldGroup>(group: T): PlacedRecordField<RecordFieldName<T>>[] {
  const walk = (g: RecordFieldGroup, path: string[]): PlacedRecordField<string>[] =>
    Object.entries(g).flatMap(([k, v]) =>
      isField(v)
        ? // a stored record returns medicalHistory's contents at its top level (SPEC §3)
          [{ ...v, name: [...path, k].join('.'), readPath: path[0] === 'medicalHistory' ? [...path.slice(1), k] : [...path, k] }]
        : walk(v, [...path, k]),
    );
  return walk(group, []) as PlacedRecordField<RecordFieldName<T>>[];
}

/** The form's steps, each with its fields, in order. */
export const stepsOf = <F extends { step: RecordStep }>(fields: F[]) =>
  RECORD_STEPS.map((title) => ({ title, fields: fields.filter((f) => f.step === title) }));

/** The detail view's sections, each with its fields, in order. */
export const sectionsOf = <F extends { section?: RecordSection }>(fields: F[]) =>
  RECORD_SECTIONS.map((title) => ({ title, fields: fields.filter((f) => f.section === title) }));

/** The form's starting values: each field's default, else empty (every measurement); nothing for a select without one (the browser shows "Select…"). */
export type RecordDefaultsOf<T> = {
  -readonly [K in keyof T]?: T[K] extends RecordField<infer S> ? z.input<S> : RecordDefaultsOf<T[K]>;
};
export function defaultsOf<T extends RecordFieldGroup>(group: T): RecordDefaultsOf<T> {
  const walk = (g: RecordFieldGroup): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(g)
        .filter(([, v]) => !isField(v) || v.kind !== 'select' || v.default !== undefined)
        .map(([k, v]) => [k, isField(v) ? (v.default ?? '') : walk(v)]),
    );
  return walk(group) as RecordDefaultsOf<T>;
}

/** The record's fields in the form's order. */
export const recordFields = fieldsOf(RECORD_FIELDS);
export const recordSteps = stepsOf(recordFields);
export const recordSections = sectionsOf(recordFields);
export const recordDefaults = defaultsOf(RECORD_FIELDS);

/** One of the record's fields by name, e.g. recordField('treatment.prescribedDrug'). */
export const recordField = (name: RecordFieldName): PlacedRecordField => recordFields.find((f) => f.name === name)!;

/** The label a read-only view shows. */
export const shortLabelOf = (f: FieldCommon) => f.shortLabel ?? f.label;
/** The label the summary shows. */
export const summaryLabelOf = (f: FieldCommon) => f.summaryLabel ?? shortLabelOf(f);

/** A field's value in a stored record (undefined when the record does not have it). */
export function valueIn(record: object, f: Pick<PlacedRecordField, 'readPath'>): unknown {
  let node: unknown = record;
  for (const key of f.readPath)
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/**
 * A field's value in a stored record as the read-only views show it (displayValue); a field that
 * qualifies a measurement not taken reads "not applicable: SpO2 not measured", never its default.
 */
export function displayValueIn(record: object, f: PlacedRecordField): string {
  if (f.qualifies) {
    const path = [...f.readPath.slice(0, -1), f.qualifies];
    const qualified = recordFields.find((g) => g.readPath.join('.') === path.join('.'));
    const reading = valueIn(record, { readPath: path });
    if (reading === undefined || reading === null || reading === '')
      return `not applicable: ${qualified ? shortLabelOf(qualified) : f.qualifies} not measured`;
  }
  return displayValue(f, valueIn(record, f));
}

/** A measurement's value as the read-only views show it: "not measured" when absent, the option's text, the unit. */
export function displayValue(f: FieldCommon & { kind: Kind }, value: unknown): string {
  if (value === undefined || value === null || value === '') return f.measurement ? 'not measured' : '';
  const option = f.valueLabels?.[String(value)];
  if (option) return option;
  if (f.kind === 'number' && typeof value === 'number' && f.unit) return `${value} ${f.unit}`;
  return String(value);
}
