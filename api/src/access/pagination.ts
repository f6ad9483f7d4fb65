import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Page } from 'shared-contracts';
import { selectRows, type Queryable } from '../adapters/db';
import type { medicalRecords, prescriptions } from '../db/schema';
import { assignedPatientIds } from './assignments';

// Paging through a patient's (or a doctor's assigned patients') records and prescriptions.

/** Whose records a list shows: one patient's, or those of every patient assigned to a doctor. */
export type ListScope = { patientId: string } | { assignedTo: string };

export type { Page };

/**
 * The ids of one page, newest first, for a doctor's assigned patients: for each assigned patient
 * the first (offset + limit) entries of its (patient_id, created_at DESC, id DESC) index range,
 * merged. Page 1 reads at most 10 index entries per assigned patient, however many rows the
 * table holds. `table` is medical_records or prescriptions (same columns, same index).
 */
export function assignedPageIds(
  table: typeof medicalRecords | typeof prescriptions,
  doctorId: string,
  page: number,
  limit: number,
): SQL {
  const offset = (page - 1) * limit;
  return sql`select r.id from (${assignedPatientIds(doctorId)}) a
    cross join lateral (
      select m.id, m.created_at from ${table} m
      where m.patient_id = a.patient_id
      order by m.created_at desc, m.id desc
      limit ${offset + limit}
    ) r
    order by r.created_at desc, r.id desc
    limit ${limit} offset ${offset}`;
}

/**
 * How many rows a scope holds. For a doctor: one count per assigned patient through the patient
 * index, summed, so the work follows the doctor's patients, not the table's size (a plain
 * `patient_id IN (…)` count lets the planner pick a hash join over the whole table).
 */
export function scopeCount(table: typeof medicalRecords | typeof prescriptions, scope: ListScope): SQL {
  if ('patientId' in scope) return sql`select count(*) as n from ${table} where ${table.patientId} = ${scope.patientId}`;
  return sql`select coalesce(sum(c.n), 0) as n from (${assignedPatientIds(scope.assignedTo)}) a
    cross join lateral (select count(*) as n from ${table} m where m.patient_id = a.patient_id) c`;
}

export async function countScope(
  db: Queryable,
  table: typeof medicalRecords | typeof prescriptions,
  scope: ListScope,
): Promise<number> {
  const [row] = await selectRows<{ n: number | string }>(db, scopeCount(table, scope));
  return Number(row.n);
}

type ListTable = typeof medicalRecords | typeof prescriptions;

/**
 * The page query and the count query of a list of records or prescriptions, newest first: a
 * patient's own through the patient index, a doctor's across assigned patients (assignedPageIds).
 */
export function listQueries<T extends ListTable>(db: Queryable, t: T, scope: ListScope, page: number, limit: number) {
  const order = [desc(t.createdAt), desc(t.id)];
  const rows = db.select().from(t as ListTable);
  return {
    page: ('patientId' in scope
      ? rows
          .where(eq(t.patientId, scope.patientId))
          .orderBy(...order)
          .limit(limit)
          .offset((page - 1) * limit)
      : rows
          .where(sql`${t.id} in (${assignedPageIds(t, scope.assignedTo, page, limit)})`)
          .orderBy(...order)) as unknown as Promise<T['$inferSelect'][]> & { getSQL(): SQL },
    count: scopeCount(t, scope),
  };
}
