import { and, desc, eq, getTableColumns, inArray, type AnyColumn } from 'drizzle-orm';
import type { Queryable } from '../adapters/db';
import { allergyIntolerances, assignments, doctors, medicalFiles, medicalRecords, patients, prescriptions } from '../db/schema';
import { allergyNotesOf, reviewedKeys, type AllergyNote } from './allergy-entries';

/*
 * The rows a patient's FHIR resources are made from (api/src/fhir maps them). Read only through
 * PatientAccess.fhirRecordOf, after its permission check; never exported from src/access.
 */

export type PatientRow = typeof patients.$inferSelect;
export type DoctorRow = Pick<
  typeof doctors.$inferSelect,
  'id' | 'name' | 'email' | 'gender' | 'qualifications' | 'specialization'
>;
/** A prescription as FHIR maps it: its allergy notes are read once, as notes (allergyNotes), not with every row. */
export type PrescriptionRow = Omit<typeof prescriptions.$inferSelect, 'allergies'>;
const { allergies: _notes, ...PRESCRIPTION_COLUMNS } = getTableColumns(prescriptions);
const DOCTOR_COLUMNS = {
  id: doctors.id,
  name: doctors.name,
  email: doctors.email,
  gender: doctors.gender,
  qualifications: doctors.qualifications,
  specialization: doctors.specialization,
};
export type AllergyRow = typeof allergyIntolerances.$inferSelect;
export type FileRow = typeof medicalFiles.$inferSelect;

/** Everything of one patient a FHIR answer is built from (files: stored ones only). */
export interface PatientRows {
  patient: PatientRow;
  /** assigned doctors and every doctor who wrote a record or a prescription of the patient */
  doctors: DoctorRow[];
  records: (typeof medicalRecords.$inferSelect)[];
  prescriptions: PrescriptionRow[];
  allergies: AllergyRow[];
  /**
   * The free-text allergy notes of their records and prescriptions that no structured entry
   * reviews: unconfirmed allergies until a doctor reviews them (hazard L4: an export must not read
   * "no allergy" for a patient whose notes state one).
   */
  allergyNotes: AllergyNote[];
  files: FileRow[];
}

/** The kinds of a patient's rows a FHIR answer can be made from (the patient's own row always comes). */
export type FhirRowKind = 'doctors' | 'records' | 'prescriptions' | 'allergies' | 'files';
export const EVERY_ROW_KIND: readonly FhirRowKind[] = ['doctors', 'records', 'prescriptions', 'allergies', 'files'];

/**
 * What one FHIR answer reads of a patient: every row of some kinds (a search, $everything), or
 * one row by id (a read). Never capped: an answer that left rows out would read as a shorter
 * record, not as an incomplete one.
 */
export type FhirSlice =
  { kinds: readonly FhirRowKind[] } | { one: { kind: 'record' | 'prescription' | 'allergy' | 'file'; id: string } };

export async function patientRowsOf(db: Queryable, patientId: string, slice: FhirSlice): Promise<PatientRows | undefined> {
  const [patient] = await db.select().from(patients).where(eq(patients.id, patientId)).limit(1);
  if (!patient) return undefined;
  const kinds = new Set('kinds' in slice ? slice.kinds : []);
  const one = 'one' in slice ? slice.one : undefined;
  /** Every row of the kind, the one asked for, or none. */
  const which = <T extends { patientId: AnyColumn; id: AnyColumn }>(table: T, kind: FhirRowKind, oneKind: string) =>
    kinds.has(kind)
      ? eq(table.patientId, patientId)
      : one?.kind === oneKind
        ? and(eq(table.patientId, patientId), eq(table.id, one.id))
        : undefined;
  const recordsWhere = which(medicalRecords, 'records', 'record');
  const records = recordsWhere
    ? await db.select().from(medicalRecords).where(recordsWhere).orderBy(desc(medicalRecords.createdAt), desc(medicalRecords.id))
    : [];
  const rxWhere = which(prescriptions, 'prescriptions', 'prescription');
  const rx = rxWhere
    ? await db
        .select(PRESCRIPTION_COLUMNS)
        .from(prescriptions)
        .where(rxWhere)
        .orderBy(desc(prescriptions.createdAt), desc(prescriptions.id))
    : [];
  const allergiesWhere = which(allergyIntolerances, 'allergies', 'allergy');
  const allergies = allergiesWhere
    ? await db
        .select()
        .from(allergyIntolerances)
        .where(allergiesWhere)
        .orderBy(desc(allergyIntolerances.recordedAt), desc(allergyIntolerances.id))
    : [];
  const filesWhere = which(medicalFiles, 'files', 'file');
  const files = filesWhere
    ? await db
        .select()
        .from(medicalFiles)
        .where(and(filesWhere, eq(medicalFiles.status, 'stored')))
        .orderBy(desc(medicalFiles.createdAt), desc(medicalFiles.id))
    : [];
  const doctorRows = kinds.has('doctors') ? await doctorsOfPatient(db, patientId) : [];
  // The notes no entry reviews: with the patient's allergies (a search or $everything), never with one entry.
  const reviewed = reviewedKeys(allergies);
  const allergyNotes = kinds.has('allergies') ? (await allergyNotesOf(db, patientId)).filter((n) => !reviewed.has(n.key)) : [];
  return { patient, doctors: doctorRows, records, prescriptions: rx, allergies, allergyNotes, files };
}

/** The patient's assigned doctors and every doctor who wrote one of their records or prescriptions. */
async function doctorsOfPatient(db: Queryable, patientId: string): Promise<DoctorRow[]> {
  const ids = [
    ...(await db.select({ id: assignments.doctorId }).from(assignments).where(eq(assignments.patientId, patientId))),
    ...(await db
      .selectDistinct({ id: medicalRecords.doctorId })
      .from(medicalRecords)
      .where(eq(medicalRecords.patientId, patientId))),
    ...(await db
      .selectDistinct({ id: prescriptions.doctorId })
      .from(prescriptions)
      .where(eq(prescriptions.patientId, patientId))),
  ].map((r) => r.id);
  const doctorIds = [...new Set(ids)];
  if (!doctorIds.length) return [];
  return db.select(DOCTOR_COLUMNS).from(doctors).where(inArray(doctors.id, doctorIds)).orderBy(doctors.name, doctors.id);
}

/** The patient a record, prescription, allergy entry or file belongs to (undefined: no such row). */
export async function ownerOf(
  db: Queryable,
  kind: 'record' | 'prescription' | 'allergy' | 'file',
  id: string,
): Promise<string | undefined> {
  const table = { record: medicalRecords, prescription: prescriptions, allergy: allergyIntolerances, file: medicalFiles }[kind];
  const [row] = await db.select({ patientId: table.patientId }).from(table).where(eq(table.id, id)).limit(1);
  return row?.patientId;
}

/** The patients a doctor is assigned to or has written for: whose data may name them. */
export async function doctorSeenBy(db: Queryable, doctorId: string, patientId: string): Promise<boolean> {
  const [a] = await db
    .select({ id: assignments.doctorId })
    .from(assignments)
    .where(and(eq(assignments.doctorId, doctorId), eq(assignments.patientId, patientId)))
    .limit(1);
  if (a) return true;
  const [r] = await db
    .select({ id: medicalRecords.id })
    .from(medicalRecords)
    .where(and(eq(medicalRecords.doctorId, doctorId), eq(medicalRecords.patientId, patientId)))
    .limit(1);
  if (r) return true;
  const [p] = await db
    .select({ id: prescriptions.id })
    .from(prescriptions)
    .where(and(eq(prescriptions.doctorId, doctorId), eq(prescriptions.patientId, patientId)))
    .limit(1);
  return p !== undefined;
}

export async function findDoctorRow(db: Queryable, doctorId: string): Promise<DoctorRow | undefined> {
  const [row] = await db.select(DOCTOR_COLUMNS).from(doctors).where(eq(doctors.id, doctorId)).limit(1);
  return row;
}
