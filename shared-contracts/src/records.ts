import { z } from 'zod';
import { Assessment, SummaryInfo } from './assessment';
import { EntityId, page } from './common';
import { PAGE_SIZE } from './constants';
import { MedicationAlert, OverrideReason } from './medication-safety';
import { RECORD_FIELDS, payloadSchemaOf, readSchemaOf } from './record-descriptor';

const { medicalHistory, examination, investigations, treatment } = RECORD_FIELDS;

export const SystemicHistory = payloadSchemaOf(medicalHistory.systemicHistory);
export const GeneralPhysicalExamination = payloadSchemaOf(examination.generalPhysicalExamination);
export const Examination = payloadSchemaOf(examination);
export const Investigations = payloadSchemaOf(investigations);
export const Treatment = payloadSchemaOf(treatment);

/** POST /medicalhistory/{patientId}: the record-creation payload of SPEC §3, derived from the descriptor. */
export const MedicalRecordCreate = payloadSchemaOf(RECORD_FIELDS).extend({
  /** why the doctor proceeds past a stop alert for the treatment's drug (else 409), kept in the audit log */
  overrideReason: OverrideReason.optional(),
});
export type MedicalRecordCreate = z.input<typeof MedicalRecordCreate>;
/** The payload once validated (defaults filled): what the api stores. */
export type ParsedMedicalRecordCreate = z.output<typeof MedicalRecordCreate>;

export const Age = z.object({ years: z.number().int(), months: z.number().int(), days: z.number().int() });

/** A stored record: biodata and doctorInfo filled by the server, the sections at top level. */
export const MedicalRecord = z.object({
  _id: EntityId,
  patient: EntityId,
  summary: z.string().nullable(),
  /** when the summary was generated and from what; null without a summary */
  summaryInfo: SummaryInfo.nullable(),
  /** the clinical assessment, current with the patient's allergies, prescriptions, age and pregnancy */
  assessment: Assessment,
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
  /** the title and the eleven history texts */
  ...readSchemaOf(medicalHistory).omit({ biodata: true, systemicHistory: true }).shape,
  // read as open key → text maps, as always: readers (the summary) also show keys they do not know
  systemicHistory: z.record(z.string(), z.string()),
  examination: readSchemaOf(examination),
  investigations: z.record(z.string(), z.string()),
  treatment: readSchemaOf(treatment),
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

export const MedicalRecordList = page(MedicalRecord);
export const RecordIdParams = z.strictObject({ id: EntityId });
export const PatientIdParams = z.strictObject({ patientId: EntityId });
export const SummaryResponse = z.object({ summary: z.string() });

/** The record's treatment drug checked as a prescription is (PrescriptionCreated.alerts). */
export const MedicalRecordCreated = z.object({
  record: MedicalRecord,
  alerts: z.array(MedicationAlert),
  /** the record's assessment (record.assessment), for the page to show at once */
  assessment: Assessment,
});
