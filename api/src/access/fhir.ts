import { and, desc, eq, getTableColumns, inArray, or } from 'drizzle-orm';
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

// A patient's data is bounded by the app's own lists; these caps keep one answer finite.
const MAX_ROWS = 1000;

export async function patientRowsOf(db: Queryable, patientId: string): Promise<PatientRows | undefined> {
  const [patient] = await db.select().from(patients).where(eq(patients.id, patientId)).limit(1);
  if (!patient) return undefined;
  const records = await db
    .select()
    .from(medicalRecords)
    .where(eq(medicalRecords.patientId, patientId))
    .orderBy(desc(medicalRecords.createdAt), desc(medicalRecords.id))
    .limit(MAX_ROWS);
  const rx = await db
    .select(PRESCRIPTION_COLUMNS)
    .from(prescriptions)
    .where(eq(prescriptions.patientId, patientId))
    .orderBy(desc(prescriptions.createdAt), desc(prescriptions.id))
    .limit(MAX_ROWS);
  const allergies = await db
    .select()
    .from(allergyIntolerances)
    .where(eq(allergyIntolerances.patientId, patientId))
    .orderBy(desc(allergyIntolerances.recordedAt), desc(allergyIntolerances.id))
    .limit(MAX_ROWS);
  const files = await db
    .select()
    .from(medicalFiles)
    .where(and(eq(medicalFiles.patientId, patientId), eq(medicalFiles.status, 'stored')))
    .orderBy(desc(medicalFiles.createdAt), desc(medicalFiles.id))
    .limit(MAX_ROWS);
  const assigned = await db.select({ id: assignments.doctorId }).from(assignments).where(eq(assignments.patientId, patientId));
  const doctorIds = [...new Set([...assigned.map((a) => a.id), ...records.map((r) => r.doctorId), ...rx.map((p) => p.doctorId)])];
  const doctorRows = doctorIds.length
    ? await db
        .select({
          id: doctors.id,
          name: doctors.name,
          email: doctors.email,
          gender: doctors.gender,
          qualifications: doctors.qualifications,
          specialization: doctors.specialization,
        })
        .from(doctors)
        .where(inArray(doctors.id, doctorIds))
        .orderBy(doctors.name, doctors.id)
    : [];
  const reviewed = reviewedKeys(allergies);
  const allergyNotes = (await allergyNotesOf(db, patientId)).filter((n) => !reviewed.has(n.key));
  return { patient, doctors: doctorRows, records, prescriptions: rx, allergies, allergyNotes, files };
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
  const [row] = await db
    .select({
      id: doctors.id,
      name: doctors.name,
      email: doctors.email,
      gender: doctors.gender,
      qualifications: doctors.qualifications,
      specialization: doctors.specialization,
    })
    .from(doctors)
    .where(or(eq(doctors.id, doctorId)))
    .limit(1);
  return row;
}
