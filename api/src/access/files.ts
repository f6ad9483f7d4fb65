import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../adapters/db';
import { medicalFiles } from '../db/schema';
import { audit } from './audit';

export type MedicalFileRow = typeof medicalFiles.$inferSelect;

export async function insertPendingFile(
  db: Queryable,
  row: { patientId: string; storageKey: string; fileName: string; createdAt: Date },
): Promise<MedicalFileRow> {
  const [inserted] = await db
    .insert(medicalFiles)
    .values({ ...row, status: 'pending' })
    .returning();
  return inserted;
}

export async function findFileByKey(db: Queryable, storageKey: string): Promise<MedicalFileRow | undefined> {
  const [row] = await db.select().from(medicalFiles).where(eq(medicalFiles.storageKey, storageKey)).limit(1);
  return row;
}

/**
 * pending → stored, only from pending: false when another request got there first. The file is
 * audited as created by its patient (only patients upload, and only their own) here, when it
 * exists, not when the upload URL was issued: a refused or abandoned upload leaves no
 * "created a file" in the access history. Pass a transaction: the row and its audit go together.
 */
export async function markStored(db: Queryable, id: string, size: number, at: Date, ip: string | null): Promise<boolean> {
  const rows = await db
    .update(medicalFiles)
    .set({ status: 'stored', size, storedAt: at })
    .where(and(eq(medicalFiles.id, id), eq(medicalFiles.status, 'pending')))
    .returning({ patientId: medicalFiles.patientId });
  if (rows.length !== 1) return false;
  const { patientId } = rows[0];
  await audit(db, {
    actorId: patientId,
    actorRole: 'patient',
    at,
    ip,
    action: 'create',
    entity: 'medical_file',
    entityId: id,
    patientId,
  });
  return true;
}

export async function markRejected(db: Queryable, id: string): Promise<void> {
  await db
    .update(medicalFiles)
    .set({ status: 'rejected' })
    .where(and(eq(medicalFiles.id, id), eq(medicalFiles.status, 'pending')));
}

/**
 * Every one of the patient's files in the given states, newest first (index
 * medical_files_patient_created_idx). No cap: a list that silently stops would hide a document.
 */
export async function filesOf(db: Queryable, patientId: string, statuses: MedicalFileRow['status'][]): Promise<MedicalFileRow[]> {
  return db
    .select()
    .from(medicalFiles)
    .where(and(eq(medicalFiles.patientId, patientId), inArray(medicalFiles.status, statuses)))
    .orderBy(desc(medicalFiles.createdAt), desc(medicalFiles.id));
}

export async function storedKeys(db: Queryable, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: medicalFiles.storageKey })
    .from(medicalFiles)
    .where(and(inArray(medicalFiles.storageKey, keys), eq(medicalFiles.status, 'stored')));
  return new Set(rows.map((r) => r.key));
}

/** Counts per status, for tests and diagnostics. */
export async function countFiles(db: Queryable, patientId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: medicalFiles.status, n: sql<number>`count(*)`.mapWith(Number) })
    .from(medicalFiles)
    .where(eq(medicalFiles.patientId, patientId))
    .groupBy(medicalFiles.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
