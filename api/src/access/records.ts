import { and, asc, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { AssignedPatient, MedicalRecord, MedicalRecordCreate } from '@careloop/shared-contracts';
import type { z } from 'zod';
import type { Queryable } from '../adapters/db';
import { assignments, doctors, medicalRecords, patients, prescriptions, type MedicalRecordBiodata } from '../db/schema';
import { ageOn, isoDate } from '../clinical/age';
import { allergyNotesOf, allergyRowsOf, reviewedKeys } from './allergy-entries';
import { listQueries, readPage, type ListRead, type ListScope, type Page } from './pagination';

export type RecordRow = typeof medicalRecords.$inferSelect;
export type RecordInput = z.output<typeof MedicalRecordCreate>;

/** The stored row in the shape of the contract (SPEC §3): history texts and sections at top level. */
export function toMedicalRecord(row: RecordRow): MedicalRecord {
  return {
    _id: row.id,
    patient: row.patientId,
    title: row.title,
    summary: row.summary,
    summaryInfo: row.summary === null ? null : row.summaryInfo,
    // the readers bring it up to date first (withCurrentAssessments)
    assessment: row.assessment!,
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
export function biodataOf(
  patient: typeof patients.$inferSelect,
  modeOfAdmission: string,
  now: Date,
  timeZone?: string,
): MedicalRecordBiodata {
  // the clinic's calendar date (CLINIC_TIME_ZONE), for the date of admission and the age on it
  const dateOfAdmission = isoDate(now, timeZone);
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

export async function setSummary(
  db: Queryable,
  id: string,
  set: Pick<RecordRow, 'summary' | 'summaryInfo' | 'assessment'>,
): Promise<void> {
  await db.update(medicalRecords).set(set).where(eq(medicalRecords.id, id));
}

/** The record list's queries (exported so a test can EXPLAIN exactly these). */
export const recordListQueries = (db: Queryable, scope: ListScope, page: number, limit: number) =>
  listQueries(db, medicalRecords, scope, page, limit);

/** A page of records as stored (the caller brings their assessments up to date: withCurrentAssessments). */
export async function listRecordRows(db: Queryable, read: ListRead): Promise<Page<RecordRow>> {
  const { rows, ...page } = await readPage(db, medicalRecords, read);
  return { items: rows, ...page };
}

/**
 * The patient's latest `limit` records (newest first) for the vital-sign trend, and whether
 * there are more: one row past the limit is read to tell.
 */
export async function latestRecordsOf(
  db: Queryable,
  patientId: string,
  limit: number,
): Promise<{ records: MedicalRecord[]; truncated: boolean }> {
  const rows = await db
    .select()
    .from(medicalRecords)
    .where(eq(medicalRecords.patientId, patientId))
    .orderBy(desc(medicalRecords.createdAt), desc(medicalRecords.id))
    .limit(limit + 1);
  return { records: rows.slice(0, limit).map(toMedicalRecord), truncated: rows.length > limit };
}

/**
 * Every distinct drug and allergy list of the patient's prescriptions, for the summary: each
 * combination once, the most recently prescribed first. No cap: a drug left out would be a drug
 * the summary's checks never saw.
 */
export async function prescriptionsForSummary(db: Queryable, patientId: string) {
  return db
    .select({ prescribedDrug: prescriptions.prescribedDrug, allergies: prescriptions.allergies })
    .from(prescriptions)
    .where(eq(prescriptions.patientId, patientId))
    .groupBy(prescriptions.prescribedDrug, prescriptions.allergies)
    .orderBy(sql`max(${prescriptions.createdAt}) desc`, prescriptions.prescribedDrug);
}

/**
 * Every allergy note in force for the patient, as text for the text-based drug check: the
 * allergies text of their records and the allergy lists of their prescriptions that no structured
 * entry reviews, and the substances of their active, unrefuted structured entries (issue 13: a
 * refuted note stops alerting, a confirmed one keeps alerting). Duplicates and empty notes removed.
 */
export async function recordedAllergies(db: Queryable, patientId: string): Promise<string[]> {
  const rows = await allergyRowsOf(db, patientId);
  const reviewed = reviewedKeys(rows);
  const notes = (await allergyNotesOf(db, patientId)).filter((n) => !reviewed.has(n.key)).map((n) => n.text);
  const inForce = rows.filter((r) => r.clinicalStatus === 'active' && r.verificationStatus !== 'refuted');
  return distinctNotes([...notes, ...inForce.map((r) => r.substanceText)]);
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

/** An assigned patient with their recent records as stored, newest first. */
export interface PatientWithRecentRecords {
  patient: AssignedPatient;
  /** the latest two records and the latest two with vital signs (fewer when there are fewer) */
  records: RecordRow[];
}

/**
 * The worklist's reading, in ONE query: every patient assigned to the doctor (the join is the
 * permission) with their latest two records and their latest two observation sets (records with a
 * vital sign: an administrative record must not hide the last vitals). Per patient, two short
 * index scans (medical_records_patient_created_idx, medical_records_patient_vitals_idx) in a
 * LATERAL join: the cost grows with the doctor's patients, not with how many records they have.
 */
export function recentRecordsQuery(db: Queryable, doctorId: string) {
  const m = medicalRecords;
  const latestTwo = (observationSets: boolean) =>
    db
      .select({ id: m.id })
      .from(m)
      .where(
        observationSets
          ? and(eq(m.patientId, assignments.patientId), eq(m.hasVitals, true))
          : eq(m.patientId, assignments.patientId),
      )
      .orderBy(desc(m.createdAt), desc(m.id))
      .limit(2);
  const recent = union(latestTwo(false), latestTwo(true)).as('recent');
  return db
    .select({
      patient: { patient: patients.id, name: patients.name, DOB: patients.dob, email: patients.email },
      record: getTableColumns(m),
    })
    .from(assignments)
    .innerJoin(patients, eq(patients.id, assignments.patientId))
    .leftJoinLateral(recent, sql`true`)
    .leftJoin(m, eq(m.id, recent.id))
    .where(eq(assignments.doctorId, doctorId))
    .orderBy(asc(patients.name), asc(patients.id), desc(m.createdAt), desc(m.id));
}

export async function recentRecordsOf(db: Queryable, doctorId: string): Promise<PatientWithRecentRecords[]> {
  const byPatient = new Map<string, PatientWithRecentRecords>();
  for (const row of await recentRecordsQuery(db, doctorId)) {
    let entry = byPatient.get(row.patient.patient);
    if (!entry) byPatient.set(row.patient.patient, (entry = { patient: row.patient, records: [] }));
    if (row.record) entry.records.push(row.record as unknown as RecordRow);
  }
  return [...byPatient.values()];
}
