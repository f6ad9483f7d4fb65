import { z } from 'zod';
import { EntityId, ModeOfAdmission, Text } from './common';
import { MIN_PULSE, MIN_RESPIRATORY_RATE, PAGE_SIZE } from './constants';

/** Free clinical text: a history, a finding, a result. */
const Note = (max = 4000) => Text(max).default('');

export const SystemicHistory = z.strictObject({
  centralNervousSystem: Note(),
  cardiovascularSystem: Note(),
  gastrointestinalSystem: Note(),
  genitourinarySystem: Note(),
  musculoskeletalSystem: Note(),
});

export const GeneralPhysicalExamination = z.strictObject({
  /** "systolic/diastolic" in mmHg, e.g. "128/84" */
  bloodPressure: Text(20).default(''),
  pulse: z.coerce.number({ error: 'Pulse must be a number' }).min(MIN_PULSE, { error: `Pulse must be at least ${MIN_PULSE}` }).max(300).default(MIN_PULSE),
  /** as typed (°C, or °F above 45); SPEC §5's default "9" is flagged implausible by the summary */
  temperature: Text(10).default('9'),
  respiratoryRate: z.coerce
    .number({ error: 'Respiratory rate must be a number' })
    .min(MIN_RESPIRATORY_RATE, { error: `Respiratory rate must be at least ${MIN_RESPIRATORY_RATE}` })
    .max(80)
    .default(MIN_RESPIRATORY_RATE),
  bloodSugarLevel: Text(20).default(''),
  Notes: Note(),
});

export const Examination = z.strictObject({
  generalPhysicalExamination: GeneralPhysicalExamination,
  respiratorySystem: Note(),
  centralNervousSystem: Note(),
  cardiovascularSystem: Note(),
  gastrointestinalSystem: Note(),
});

export const Investigations = z.strictObject({
  completeBloodCount: Note(),
  liverFunctionTests: Note(),
  renalFunctionTests: Note(),
  vitalMarkers: Note(),
  serumElectrolytes: Note(),
  prothrombinTime: Note(),
  activatedPartialThromboplastinTime: Note(),
  electrocardiogram: Note(),
  chestXRay: Note(),
});

export const Treatment = z.strictObject({
  prescribedDrug: Note(200),
  dosage: Note(200),
  administrationRoute: Note(200),
  dosageFrequency: Note(200),
});

const HISTORY_FIELDS = {
  historyOfPresentingComplaints: Note(),
  historyOfPresentingIllness: Note(),
  pastSurgicalHistory: Note(),
  pastMedicalHistory: Note(),
  familyHistory: Note(),
  drugHistory: Note(),
  allergies: Note(),
  gynecologicalHistory: Note(),
  occupationalHistory: Note(),
  travelHistory: Note(),
  socioeconomicHistory: Note(),
};

/** POST /medicalhistory/{patientId}: the record-creation payload of SPEC §3. */
export const MedicalRecordCreate = z.strictObject({
  medicalHistory: z.strictObject({
    title: Text(200).min(1, { error: 'Title is required' }),
    biodata: z.strictObject({ modeOfAdmission: ModeOfAdmission }),
    systemicHistory: SystemicHistory,
    ...HISTORY_FIELDS,
  }),
  examination: Examination,
  investigations: Investigations,
  treatment: Treatment,
});
export type MedicalRecordCreate = z.input<typeof MedicalRecordCreate>;

export const Age = z.object({ years: z.number().int(), months: z.number().int(), days: z.number().int() });

/** A stored record: biodata and doctorInfo filled by the server, the sections at top level. */
export const MedicalRecord = z.object({
  _id: EntityId,
  patient: EntityId,
  title: z.string(),
  summary: z.string().nullable(),
  biodata: z.object({
    name: z.string(),
    email: z.string(),
    gender: z.string(),
    age: Age.nullable(),
    occupation: z.string(),
    modeOfAdmission: z.string(),
    dateOfAdmission: z.string(),
    maritalStatus: z.string(),
    address: z.object({ street: z.string(), city: z.string(), state: z.string(), pinCode: z.string() }),
  }),
  doctorInfo: z.object({ doctorName: z.string(), doctorEmail: z.string() }),
  ...Object.fromEntries(Object.keys(HISTORY_FIELDS).map((k) => [k, z.string()])) as {
    [K in keyof typeof HISTORY_FIELDS]: z.ZodString;
  },
  systemicHistory: z.record(z.string(), z.string()),
  examination: z.object({
    generalPhysicalExamination: z.object({
      bloodPressure: z.string(),
      pulse: z.number(),
      temperature: z.string(),
      respiratoryRate: z.number(),
      bloodSugarLevel: z.string(),
      Notes: z.string(),
    }),
    respiratorySystem: z.string(),
    centralNervousSystem: z.string(),
    cardiovascularSystem: z.string(),
    gastrointestinalSystem: z.string(),
  }),
  investigations: z.record(z.string(), z.string()),
  treatment: z.object({
    prescribedDrug: z.string(),
    dosage: z.string(),
    administrationRoute: z.string(),
    dosageFrequency: z.string(),
  }),
  createdAt: z.string(),
});
export type MedicalRecord = z.infer<typeof MedicalRecord>;

/** ?page=1&limit=10 (SPEC §9). */
export const PageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
  /** a doctor may narrow the list to one assigned patient */
  patientId: EntityId.optional(),
});

export const MedicalRecordList = z.object({ items: z.array(MedicalRecord), page: z.number(), limit: z.number(), total: z.number() });
export const RecordIdParams = z.strictObject({ id: EntityId });
export const PatientIdParams = z.strictObject({ patientId: EntityId });
export const SummaryResponse = z.object({ summary: z.string() });

/** A prescribed drug that meets a recorded allergy, by name, by class, or by cross-reactivity. */
export const DrugAllergyAlert = z.object({
  drug: z.string(),
  allergy: z.string(),
  kind: z.enum(['same-drug', 'same-class', 'cross-reactivity']),
  drugClass: z.string().optional(),
  message: z.string(),
});
export type DrugAllergyAlert = z.infer<typeof DrugAllergyAlert>;

export const MedicalRecordCreated = z.object({ record: MedicalRecord, alerts: z.array(DrugAllergyAlert) });
