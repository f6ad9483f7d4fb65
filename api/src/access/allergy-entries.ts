import { and, asc, desc, eq, inArray, isNotNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AllergyIntolerance } from '@careloop/shared-contracts';
import { selectRows, type Queryable } from '../adapters/db';
import { readAllergyText, type AllergyEntry } from '../clinical';
import { allergyIntolerances, doctors, medicalRecords, patients, prescriptions } from '../db/schema';

/*
 * A patient's allergies as every alert sees them (issue 13): the structured entries of the
 * allergy list, whatever their status (the engine silences refuted and inactive ones), and the
 * entries read from each free-text allergy note of their records and prescriptions (SPEC §3, §5)
 * that no structured entry reviews. Such entries count as unconfirmed allergies until a doctor
 * confirms, edits or refutes them: a note is never silently ignored, and a refuted one stops alerting.
 */

export type AllergyRow = typeof allergyIntolerances.$inferSelect;

/** How a note is compared: case and spacing do not matter (as distinctNotes in records.ts). */
export const noteKey = (note: string) => note.replace(/\s+/g, ' ').trim().toLowerCase();

/** A free-text allergy note as first written: where, by which doctor, when. */
export interface AllergyNote {
  /** the note as written (first spelling, spaces collapsed) */
  text: string;
  key: string;
  source: 'record' | 'prescription';
  doctorId: string;
  doctorName: string;
  at: Date;
}

/** A note as the database returns it: each note text once, where it was first written. */
export interface AllergyNoteRow {
  note: string;
  source: 'record' | 'prescription';
  doctorId: string;
  doctorName: string | null;
  atMs: number | string;
}

/**
 * The patient's allergy notes as rows (AllergyNoteRow), a query of its own or a part of the
 * prescribing context's one statement (prescribing.ts). All of them: a note is never dropped for
 * being old (hazard L6: only the newest 1,000 sources were read, so a penicillin anaphylaxis noted
 * before them stopped alerting). Each note text comes once, where it was first written, however many
 * prescriptions repeat it. Only the prescriptions that carry a note are read
 * (`cardinality(allergies) > 0`, the partial index prescriptions_patient_noted_idx): one without
 * notes adds nothing to the unnest, so skipping it changes no result.
 */
export function allergyNoteRows(patientId: string | Placeholder): SQL {
  const m = medicalRecords;
  const p = prescriptions;
  return sql`select distinct on (n.note) n.note, n.source, n.doctor_id as "doctorId", n.doctor_name as "doctorName",
      (extract(epoch from n.at) * 1000)::float8 as "atMs"
    from (
      select ${m.history}->>'allergies' as note, 'record' as source, ${m.doctorId} as doctor_id,
        ${m.doctorInfo}->>'doctorName' as doctor_name, ${m.createdAt} as at, 0::bigint as place
      from ${m} where ${m.patientId} = ${patientId}
      union all
      select a.note, 'prescription', ${p.doctorId}, ${p.assignedBy}, ${p.createdAt}, a.place
      from ${p} cross join lateral unnest(${p.allergies}) with ordinality as a(note, place)
      where ${p.patientId} = ${patientId} and cardinality(${p.allergies}) > 0
    ) n
    where coalesce(btrim(n.note), '') <> ''
    order by n.note, n.at asc, n.source desc, n.place asc`;
}

/** The notes, oldest first, spellings that differ only in case or spacing merged (the first kept). */
export function toAllergyNotes(firstOfEach: AllergyNoteRow[]): AllergyNote[] {
  const all = firstOfEach.map((r) => ({ ...r, at: new Date(Number(r.atMs)) })).sort((a, b) => a.at.getTime() - b.at.getTime());
  const seen = new Map<string, AllergyNote>();
  for (const from of all) {
    const text = (from.note ?? '').replace(/\s+/g, ' ').trim();
    const key = text.toLowerCase(); // noteKey(text): the spaces are collapsed already
    if (!text || seen.has(key)) continue;
    seen.set(key, { text, key, source: from.source, doctorId: from.doctorId, doctorName: from.doctorName ?? '', at: from.at });
  }
  return [...seen.values()];
}

/** Every distinct allergy note of the patient's records and prescriptions, oldest first. */
export async function allergyNotesOf(db: Queryable, patientId: string): Promise<AllergyNote[]> {
  return toAllergyNotes(await selectRows<AllergyNoteRow>(db, allergyNoteRows(patientId)));
}

/** The patient's structured entries, newest first. */
export async function allergyRowsOf(db: Queryable, patientId: string): Promise<AllergyRow[]> {
  return db
    .select()
    .from(allergyIntolerances)
    .where(eq(allergyIntolerances.patientId, patientId))
    .orderBy(desc(allergyIntolerances.recordedAt), asc(allergyIntolerances.id));
}

/** The columns of an entry the alerts read (toAllergyEntry, reviewedKeys). */
export const ALLERGY_ENTRY_COLUMNS = {
  substanceText: allergyIntolerances.substanceText,
  substanceCode: allergyIntolerances.substanceCode,
  type: allergyIntolerances.type,
  criticality: allergyIntolerances.criticality,
  reactions: allergyIntolerances.reactions,
  clinicalStatus: allergyIntolerances.clinicalStatus,
  verificationStatus: allergyIntolerances.verificationStatus,
  reviews: allergyIntolerances.reviews,
};
export type AllergyEntryRow = Pick<AllergyRow, keyof typeof ALLERGY_ENTRY_COLUMNS>;

/** The notes structured entries review (their keys). */
export function reviewedKeys(rows: Pick<AllergyRow, 'reviews'>[]): Set<string> {
  return new Set(rows.map((r) => r.reviews).filter((k): k is string => k !== null));
}

export function toAllergyEntry(row: AllergyEntryRow): AllergyEntry {
  return {
    substance: { text: row.substanceText, ...(row.substanceCode ? { code: row.substanceCode } : {}) },
    type: row.type,
    criticality: row.criticality,
    reactions: row.reactions,
    clinicalStatus: row.clinicalStatus,
    verificationStatus: row.verificationStatus,
  };
}

/**
 * THE source of every alert (record create, prescribe, drug-alerts, summary): structured entries
 * (all statuses, newest first) ∪ entries read from every unreviewed free-text note and from `typed`
 * (allergies typed into a form, which become notes once saved — so a reviewed note typed again
 * stays reviewed). Pure: the prescribing context reads rows and notes in its one statement.
 */
export function allergyEntriesFrom(rows: AllergyEntryRow[], notes: AllergyNote[], typed: string[] = []): AllergyEntry[] {
  const reviewed = reviewedKeys(rows);
  const seen = new Set<string>();
  const said = new Set<string>();
  const fromText: AllergyEntry[] = [];
  for (const [note, key] of [...notes.map((n) => [n.text, n.key]), ...typed.map((t) => [t, noteKey(t)])]) {
    if (!key || seen.has(key) || reviewed.has(key)) continue;
    seen.add(key);
    // a statement repeated in many notes is checked once: the same entry raises the same alerts
    for (const entry of readAllergyText(note)) {
      const statement = readEntryKey(entry);
      if (said.has(statement)) continue;
      said.add(statement);
      fromText.push(entry);
    }
  }
  return [...rows.map(toAllergyEntry), ...fromText];
}

/** allergyEntriesFrom the patient's rows and notes, read here. */
export async function allergyEntriesFor(db: Queryable, patientId: string, typed: string[] = []): Promise<AllergyEntry[]> {
  return allergyEntriesFrom(await allergyRowsOf(db, patientId), await allergyNotesOf(db, patientId), typed);
}

/** The category of an entry read from text: the engine does not say; coded substances are medicines. */
export const categoryOf = (entry: AllergyEntry): AllergyIntolerance['category'] =>
  (entry as { category?: AllergyIntolerance['category'] }).category ?? 'medication';

/**
 * What makes two entries read from notes the same statement: substance, type, criticality, reactions
 * and any doubt. A note copied forward into every record says it again; it is listed once, with the
 * first note it was read from (every note is still listed verbatim, and every one still counts).
 */
export const readEntryKey = (e: AllergyEntry) =>
  JSON.stringify([e.substance.code ?? noteKey(e.substance.text), e.type, e.criticality, e.reactions, e.review ?? '']);

/** The entries read from unreviewed notes, oldest note first, each statement once. */
export function unreviewedReadings(
  notes: AllergyNote[],
  reviewed: Set<string>,
): { note: AllergyNote; entry: AllergyEntry; index: number }[] {
  const seen = new Set<string>();
  return notes
    .filter((n) => !reviewed.has(n.key))
    .flatMap((note) => readAllergyText(note.text).map((entry, index) => ({ note, entry, index })))
    .filter(({ entry }) => {
      const key = readEntryKey(entry);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** The unreviewed entries read from free text, as the allergy list shows them (no _id, unconfirmed). */
export function unreviewedEntries(patientId: string, notes: AllergyNote[], reviewed: Set<string>): AllergyIntolerance[] {
  return unreviewedReadings(notes, reviewed).map(({ note: n, entry }) => ({
    patientId,
    substance: entry.substance,
    type: entry.type,
    category: categoryOf(entry),
    criticality: entry.criticality,
    reactions: entry.reactions,
    clinicalStatus: entry.clinicalStatus,
    verificationStatus: 'unconfirmed' as const,
    ...(entry.review ? { review: entry.review } : {}),
    source: n.source,
    sourceText: n.text,
    recordedBy: { role: 'doctor' as const, name: n.doctorName },
    recordedAt: n.at.toISOString(),
  }));
}

/** Rows in the contract's shape, with the current names of whoever recorded them. */
export async function toAllergyIntolerances(db: Queryable, rows: AllergyRow[]): Promise<AllergyIntolerance[]> {
  const ids = (role: 'patient' | 'doctor') => [
    ...new Set(rows.filter((r) => r.recordedByRole === role).map((r) => r.recordedById)),
  ];
  const names = new Map<string, string>();
  const doctorIds = ids('doctor');
  const patientIds = ids('patient');
  if (doctorIds.length) {
    for (const d of await db.select({ id: doctors.id, name: doctors.name }).from(doctors).where(inArray(doctors.id, doctorIds)))
      names.set(`doctor:${d.id}`, d.name);
  }
  if (patientIds.length) {
    for (const p of await db
      .select({ id: patients.id, name: patients.name })
      .from(patients)
      .where(inArray(patients.id, patientIds)))
      names.set(`patient:${p.id}`, p.name);
  }
  return rows.map((row) => ({
    _id: row.id,
    patientId: row.patientId,
    substance: { text: row.substanceText, ...(row.substanceCode ? { code: row.substanceCode } : {}) },
    type: row.type,
    category: row.category,
    criticality: row.criticality,
    reactions: row.reactions,
    clinicalStatus: row.clinicalStatus,
    verificationStatus: row.verificationStatus,
    ...(row.note ? { note: row.note } : {}),
    ...(row.statusReason ? { statusReason: row.statusReason } : {}),
    source: 'structured' as const,
    ...(row.reviews ? { sourceText: row.reviews } : {}),
    recordedBy: { role: row.recordedByRole, name: names.get(`${row.recordedByRole}:${row.recordedById}`) ?? '' },
    recordedAt: row.recordedAt.toISOString(),
  }));
}

export async function findAllergy(db: Queryable, id: string): Promise<AllergyRow | undefined> {
  const [row] = await db.select().from(allergyIntolerances).where(eq(allergyIntolerances.id, id)).limit(1);
  return row;
}

/** Whether a structured entry already reviews this note (the key). */
export async function isReviewed(db: Queryable, patientId: string, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: allergyIntolerances.id })
    .from(allergyIntolerances)
    .where(
      and(
        eq(allergyIntolerances.patientId, patientId),
        isNotNull(allergyIntolerances.reviews),
        eq(allergyIntolerances.reviews, key),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export type AllergyInsert = typeof allergyIntolerances.$inferInsert;

export async function insertAllergies(db: Queryable, values: AllergyInsert[]): Promise<AllergyRow[]> {
  if (values.length === 0) return [];
  return db.insert(allergyIntolerances).values(values).returning();
}

export async function updateAllergy(db: Queryable, id: string, set: Partial<AllergyInsert>): Promise<AllergyRow> {
  const [row] = await db.update(allergyIntolerances).set(set).where(eq(allergyIntolerances.id, id)).returning();
  return row;
}
