import { eq } from 'drizzle-orm';
import type { Prescription } from 'shared-contracts';
import type { Queryable } from '../adapters/db';
import { prescriptions } from '../db/schema';
import { countScope, listQueries, type ListScope, type Page } from './pagination';

export type PrescriptionRow = typeof prescriptions.$inferSelect;

export function toPrescription(row: PrescriptionRow): Prescription {
  return {
    _id: row.id,
    prescribedDrug: row.prescribedDrug,
    dosage: row.dosage,
    administrationRoute: row.administrationRoute,
    dosageFrequency: row.dosageFrequency,
    allergies: row.allergies,
    assignedBy: row.assignedBy,
    patientId: row.patientId,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function insertPrescription(
  db: Queryable,
  p: Omit<typeof prescriptions.$inferInsert, 'id'> & { createdAt: Date },
): Promise<PrescriptionRow> {
  const [row] = await db.insert(prescriptions).values(p).returning();
  return row;
}

export async function findPrescription(db: Queryable, id: string): Promise<PrescriptionRow | undefined> {
  const [row] = await db.select().from(prescriptions).where(eq(prescriptions.id, id)).limit(1);
  return row;
}

/** The prescription list's queries (exported so a test can EXPLAIN exactly these). */
export const prescriptionListQueries = (db: Queryable, scope: ListScope, page: number, limit: number) =>
  listQueries(db, prescriptions, scope, page, limit);

export async function listPrescriptions(
  db: Queryable,
  scope: ListScope,
  page: number,
  limit: number,
): Promise<Page<Prescription>> {
  const q = prescriptionListQueries(db, scope, page, limit);
  const rows = await q.page;
  return { items: rows.map(toPrescription), page, limit, total: await countScope(db, prescriptions, scope) };
}
