import { z } from 'zod';
import { Text } from './common';
import { MIN_PULSE, MIN_RESPIRATORY_RATE, MODES_OF_ADMISSION } from './constants';

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

type Kind = 'text' | 'note' | 'number' | 'select';

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
    allergies: history('Past history', 'Allergies'),
    gynecologicalHistory: history('Personal history', 'Gynecological history', { summaryLabel: 'Gynaecological history' }),
    occupationalHistory: history('Personal history', 'Occupational history'),
    travelHistory: history('Personal history', 'Travel history'),
    socioeconomicHistory: history('Personal history', 'Socioeconomic history', { summaryLabel: 'Social history' }),
  },
  examination: {
    generalPhysicalExamination: {
      /** "systolic/diastolic", e.g. "128/84" */
      bloodPressure: field.text({
        step: physicalExamination,
        section: 'Examination',
        label: 'Blood pressure',
        unit: 'mmHg',
        max: 20,
        placeholder: '120/80',
      }),
      pulse: field.number({
        step: physicalExamination,
        section: 'Examination',
        label: 'Pulse',
        unit: '/min',
        min: MIN_PULSE,
        max: 300,
        default: MIN_PULSE,
      }),
      /** as typed (°C, or °F above 45); SPEC §5's default "9" is flagged implausible by the summary */
      temperature: field.text({ step: physicalExamination, section: 'Examination', label: 'Temperature', max: 10, default: '9' }),
      respiratoryRate: field.number({
        step: physicalExamination,
        section: 'Examination',
        label: 'Respiratory rate',
        unit: '/min',
        min: MIN_RESPIRATORY_RATE,
        max: 80,
        default: MIN_RESPIRATORY_RATE,
      }),
      bloodSugarLevel: field.text({ step: physicalExamination, section: 'Examination', label: 'Blood sugar level', max: 20 }),
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

/** The form's starting values: each field's default; nothing for a select (the browser shows "Select…"). */
export type RecordDefaultsOf<T> = {
  -readonly [K in keyof T]?: T[K] extends RecordField<infer S> ? z.input<S> : RecordDefaultsOf<T[K]>;
};
export function defaultsOf<T extends RecordFieldGroup>(group: T): RecordDefaultsOf<T> {
  const walk = (g: RecordFieldGroup): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(g)
        .filter(([, v]) => !isField(v) || v.kind !== 'select')
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
