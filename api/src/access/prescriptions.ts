import { eq, inArray, sql } from 'drizzle-orm';
import type { Prescription } from 'shared-contracts';
import { selectRows, type Queryable } from '../adapters/db';
import { patients, prescriptions } from '../db/schema';
import { listQueries, readPage, type ListRead, type ListScope, type Page } from './pagination';
import { distinctNotes } from './records';

export type PrescriptionRow = typeof prescriptions.$inferSelect;

/** A prescription as read, with the name of the patient it is for (a doctor lists many patients'). */
export function toPrescription(row: PrescriptionRow, patientName: string): Prescription {
  return {
    _id: row.id,
    prescribedDrug: row.prescribedDrug,
    dosage: row.dosage,
    administrationRoute: row.administrationRoute,
    dosageFrequency: row.dosageFrequency,
    allergies: row.allergies,
    assignedBy: row.assignedBy,
    patientId: row.patientId,
    patientName,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The patients' current names, by id: one query for a whole page of prescriptions. */
async function patientNames(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: patients.id, name: patients.name })
    .from(patients)
    .where(inArray(patients.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Rows as read models, each with its patient's name. */
export async function withPatientNames(db: Queryable, rows: PrescriptionRow[]): Promise<Prescription[]> {
  const names = await patientNames(
    db,
    rows.map((r) => r.patientId),
  );
  return rows.map((row) => toPrescription(row, names.get(row.patientId) ?? ''));
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

export async function listPrescriptions(db: Queryable, read: ListRead): Promise<Page<Prescription>> {
  const { rows, ...page } = await readPage(db, prescriptions, read);
  return { items: await withPatientNames(db, rows), ...page };
}

/**
 * The drugs of every prescription on file for the patient, distinct, oldest first: the "active
 * medications" of the interaction check. The product records no stop date, so none has ended.
 */
export async function prescribedDrugsOf(db: Queryable, patientId: string): Promise<string[]> {
  // Each drug text once, where it was first written, picked by the database (a patient with
  // thousands of prescriptions sends back a handful of names); distinctNotes then merges spellings
  // that differ only in case or spacing, as allergyNotesOf does with its notes. The database skips
  // from one drug to the next through prescriptions_patient_drug_idx (a recursive "loose index
  // scan"), so the check reads one index entry per distinct drug, not the whole history; it
  // returns what `distinct on (drug) … order by drug, created_at, id` returns (the test compares).
  const p = prescriptions;
  const rows = await selectRows<{ drug: string }>(
    db,
    sql`with recursive d(drug, at, id) as (
      (select ${p.prescribedDrug}, ${p.createdAt}, ${p.id} from ${p} where ${p.patientId} = ${patientId}
        order by ${p.prescribedDrug}, ${p.createdAt}, ${p.id} limit 1)
      union all
      select n.drug, n.at, n.id from d cross join lateral (
        select ${p.prescribedDrug} as drug, ${p.createdAt} as at, ${p.id} as id from ${p}
        where ${p.patientId} = ${patientId} and ${p.prescribedDrug} > d.drug
        order by ${p.prescribedDrug}, ${p.createdAt}, ${p.id} limit 1
      ) n
    )
    select d.drug from d order by d.at asc, d.id asc`,
  );
  return distinctNotes(rows.map((r) => r.drug));
}
