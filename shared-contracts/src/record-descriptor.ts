import { z } from 'zod';
import { Text } from './common';
import { ALLERGY_NOTE_MAX, MODES_OF_ADMISSION } from './constants';
import { UNKNOWN_TIME, formatDateTime } from './dates';
import { VITAL_SIGNS, type VitalSign } from './vital-sign-list';
import { bloodPressureMessage, checkBloodPressure, SIGNED_OR_EXPONENT, signedOrExponentMessage } from './vital-signs';

/*
 * The medical record's fields, declared once. Each field says where it sits in the creation
 * payload (its key in the tree below), its label, the form step it is on, the detail-view section
 * it is shown in, its kind and its validation. The zod schemas (records.ts), the api's stored
 * types, the eight-step form, the detail view and the summary's labels are all derived from it:
 * adding a field is one line here (plus a migration only if it needs a column; sections are jsonb).
 * The vital signs of the general physical examination are VITAL_SIGNS' (vital-sign-list.ts), one
 * field each, in its order.
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

// ------------------------------------------------------------------ vital signs

const physicalExamination = 'General physical examination';

/** The stored value of a declared choice: a number, a boolean, or the option itself. */
type ChoiceValueOf<V> = V extends { values: Readonly<Record<string, infer X>> }
  ? X extends number
    ? number
    : X extends boolean
      ? boolean
      : never
  : V extends { options: readonly (infer O extends string)[] }
    ? O
    : never;

/** The record field a declared vital sign is. */
type VitalFieldOf<V> = V extends { kind: 'number' }
  ? RecordField<z.ZodDefault<z.ZodType<number | null, unknown>>, z.ZodOptional<z.ZodNullable<z.ZodNumber>>>
  : V extends { kind: 'choice' }
    ? RecordField<z.ZodType<ChoiceValueOf<V> | null, unknown>, z.ZodOptional<z.ZodNullable<z.ZodType<ChoiceValueOf<V>>>>>
    : RecordField<z.ZodDefault<z.ZodString>, z.ZodString>;

/** The examination's fields of a list of vital signs, by key, in the list's order. */
export type VitalFieldsOf<L extends readonly VitalSign[]> = { -readonly [V in L[number] as V['key']]: VitalFieldOf<V> };

/** Leaves out what a declaration does not say (no `placeholder: undefined` on a field). */
const given = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** One declared vital sign as a field of the general physical examination, by its kind. */
function vitalField(v: VitalSign): RecordField {
  const common = given({
    step: physicalExamination,
    section: 'Examination',
    label: v.label,
    measurement: true,
    confirmOutside: v.plausible,
    placeholder: v.placeholder,
    hint: v.hint,
  } satisfies FieldCommon);
  switch (v.kind) {
    case 'number':
      return field.vital({ ...common, unit: v.units[0], min: v.limits[0], max: v.limits[1] });
    case 'blood-pressure':
      /** "systolic/diastolic" in mmHg, e.g. "128/84"; anything else is refused (400) */
      return {
        ...field.text({ ...common, unit: v.units[0], max: v.max }),
        schema: Text(v.max)
          .superRefine((text, ctx) => {
            if (!text) return;
            const bp = checkBloodPressure(text);
            if (!bp.ok) ctx.addIssue({ code: 'custom', message: bloodPressureMessage(v.label, bp) });
          })
          .default(''),
      };
    case 'temperature':
      /** °C as typed; °F only with its unit ("98.6 °F"). SPEC §5's default "9" is deliberately gone. */
      return plainNumberText({ ...common, unit: v.units[0], max: v.max });
    case 'glucose':
      // the text carries its unit ("5.4 mmol/L")
      return plainNumberText({ ...common, max: v.max });
    case 'choice': {
      const stored = v.values ? Object.values(v.values) : [];
      const read = !v.values
        ? z.enum(v.options)
        : stored.every((x) => typeof x === 'boolean')
          ? z.boolean()
          : // a plain number (OpenAPI 3.0 has no nullable union)
            z.number();
      return field.choice<string, unknown>(
        given({
          ...common,
          options: v.options,
          values: v.values,
          fallback: v.fallback,
          default: v.default,
          optionLabels: v.optionLabels,
          qualifies: v.qualifies,
          read: read as z.ZodType<unknown>,
        }),
      );
    }
  }
}

/** The fields of a list of vital signs, by key, in the list's order. */
export const vitalFieldsOf = <const L extends readonly VitalSign[]>(list: L): VitalFieldsOf<L> =>
  Object.fromEntries(list.map((v) => [v.key, vitalField(v)])) as VitalFieldsOf<L>;

const history = (step: RecordStep, label: string, labels: Pick<FieldCommon, 'shortLabel' | 'summaryLabel'> = {}) =>
  field.note({ step, section: 'History', label, ...labels });
const systemic = (label: string) => field.note({ step: 'Systemic history', section: 'Systemic history', label });
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
      // the vital signs, declared once (vital-sign-list.ts), in their order
      ...vitalFieldsOf(VITAL_SIGNS),
      observedAt: field.datetime({ step: physicalExamination, section: 'Examination', label: 'Observation time' }),
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
  // a wall-clock time in the clinic's zone, written as every other time is ("27 Nov 2026, 19:30")
  // (a value that is no real moment is shown as written: nothing typed is hidden as "unknown time")
  if (f.kind === 'datetime' && typeof value === 'string') {
    const shown = formatDateTime(value);
    return shown === UNKNOWN_TIME ? value : shown;
  }
  return String(value);
}
