import { and, desc, eq, sql } from 'drizzle-orm';
import type { MedicalRecord, MedicalRecordCreate } from 'shared-contracts';
import type { z } from 'zod';
import type { Queryable } from '../adapters/db';
import { doctors, medicalRecords, patients, prescriptions, type MedicalRecordBiodata } from '../db/schema';
import { ageOn, isoDate } from '../clinical/age';
import { countScope, listQueries, type ListScope, type Page } from './pagination';

export type RecordRow = typeof medicalRecords.$inferSelect;
export type RecordInput = z.output<typeof MedicalRecordCreate>;

/** The stored row in the shape of the contract (SPEC §3): history texts and sections at top level. */
export function toMedicalRecord(row: RecordRow): MedicalRecord {
  return {
    _id: row.id,
    patient: row.patientId,
    title: row.title,
    summary: row.summary,
    biodata: row.biodata,
    doctorInfo: row.doctorInfo,
    ...(row.history as Omit<RecordInput['medicalHistory'], 'title' | 'biodata' | 'systemicHistory'>),
    systemicHistory: row.systemicHistory,
    examination: row.examination,
    investigations: row.investigations,
    treatment: row.treatment,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function findPatient(db: Queryable, patientId: string) {
  const [row] = await db.select().from(patients).where(eq(patients.id, patientId)).limit(1);
  return row;
}

export async function findDoctor(db: Queryable, doctorId: string) {
  const [row] = await db
    .select({ id: doctors.id, name: doctors.name, email: doctors.email })
    .from(doctors)
    .where(eq(doctors.id, doctorId))
    .limit(1);
  return row;
}

/** Biodata filled by the server from the patient's profile on the day of admission. */
export function biodataOf(patient: typeof patients.$inferSelect, modeOfAdmission: string, now: Date): MedicalRecordBiodata {
  const dateOfAdmission = isoDate(now);
  return {
    name: patient.name,
    email: patient.email,
    gender: patient.gender,
    age: ageOn(patient.dob, dateOfAdmission),
    occupation: patient.occupation,
    modeOfAdmission,
    dateOfAdmission,
    maritalStatus: patient.maritalStatus,
    address: {
      street: patient.addressStreet,
      city: patient.addressCity,
      state: patient.addressState,
      pinCode: patient.addressPinCode,
    },
  };
}

export async function insertRecord(
  db: Queryable,
  r: {
    patientId: string;
    doctorId: string;
    input: RecordInput;
    biodata: MedicalRecordBiodata;
    doctorInfo: { doctorName: string; doctorEmail: string };
    now: Date;
  },
): Promise<RecordRow> {
  const { title, biodata: _payloadBiodata, systemicHistory, ...history } = r.input.medicalHistory;
  const [row] = await db
    .insert(medicalRecords)
    .values({
      patientId: r.patientId,
      doctorId: r.doctorId,
      title,
      summary: null,
      biodata: r.biodata,
      doctorInfo: r.doctorInfo,
      history,
      systemicHistory,
      examination: r.input.examination,
      investigations: r.input.investigations,
      treatment: r.input.treatment,
      createdAt: r.now,
    })
    .returning();
  return row;
}

export async function findRecord(db: Queryable, id: string): Promise<RecordRow | undefined> {
  const [row] = await db.select().from(medicalRecords).where(eq(medicalRecords.id, id)).limit(1);
  return row;
}

export async function setSummary(db: Queryable, id: string, summary: string): Promise<void> {
  await db.update(medicalRecords).set({ summary }).where(eq(medicalRecords.id, id));
}

/** The record list's queries (exported so a test can EXPLAIN exactly these). */
export const recordListQueries = (db: Queryable, scope: ListScope, page: number, limit: number) =>
  listQueries(db, medicalRecords, scope, page, limit);

export async function listRecords(db: Queryable, scope: ListScope, page: number, limit: number): Promise<Page<MedicalRecord>> {
  const q = recordListQueries(db, scope, page, limit);
  const rows = await q.page;
  return { items: rows.map(toMedicalRecord), page, limit, total: await countScope(db, medicalRecords, scope) };
}

/** The patient's prescriptions for the summary, newest first (at most 200). */
export async function prescriptionsForSummary(db: Queryable, patientId: string) {
  return db
    .select({ prescribedDrug: prescriptions.prescribedDrug, allergies: prescriptions.allergies })
    .from(prescriptions)
    .where(eq(prescriptions.patientId, patientId))
    .orderBy(desc(prescriptions.createdAt), desc(prescriptions.id))
    .limit(200);
}

/**
 * Every allergy note recorded for the patient: the allergies text of their records and the
 * allergy lists of their prescriptions. Duplicates (by case and spacing) and empty notes removed.
 */
export async function recordedAllergies(db: Queryable, patientId: string): Promise<string[]> {
  const fromRecords = await db
    .selectDistinct({ note: sql<string>`${medicalRecords.history}->>'allergies'` })
    .from(medicalRecords)
    .where(and(eq(medicalRecords.patientId, patientId), sql`coalesce(${medicalRecords.history}->>'allergies', '') <> ''`))
    .orderBy(sql`1`);
  const fromPrescriptions = await db
    .selectDistinct({ note: sql<string>`unnest(${prescriptions.allergies})` })
    .from(prescriptions)
    .where(eq(prescriptions.patientId, patientId))
    .orderBy(sql`1`);
  return distinctNotes([...fromRecords.map((r) => r.note), ...fromPrescriptions.map((r) => r.note)]);
}

/** Notes that differ only in case or spacing count once (the first spelling kept); empty ones go. */
export function distinctNotes(notes: (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of notes) {
    const note = (raw ?? '').replace(/\s+/g, ' ').trim();
    const key = note.toLowerCase();
    if (!note || seen.has(key)) continue;
    seen.add(key);
    out.push(note);
  }
  return out;
}
