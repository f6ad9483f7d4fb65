import { desc, eq, getTableColumns, getTableName, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AuditEntity, Page, Role } from '@careloop/shared-contracts';
import { preparedOnce, type Queryable } from '../adapters/db';
import type { medicalRecords, prescriptions } from '../db/schema';
import { assignedPatientIds } from './assignments';
import { auditInsert } from './audit';

// Paging through a patient's (or a doctor's assigned patients') records and prescriptions.

/** Whose records a list shows: one patient's, or those of every patient assigned to a doctor. */
export type ListScope = { patientId: string } | { assignedTo: string };

export type { Page };

/** A value in a list's SQL: given (a statement built for this read) or a placeholder (one prepared once). */
type Value<T> = T | Placeholder;
type Scope<Id> = { patientId: Id } | { assignedTo: Id };
/** Rows `offset` to `offset + limit` (`take`) of the newest-first order. */
interface PageWindow {
  limit: Value<number>;
  offset: Value<number>;
  take: Value<number>;
}
const windowOf = (page: number, limit: number) => ({ limit, offset: (page - 1) * limit, take: page * limit });

/**
 * The ids of one page, newest first, for a doctor's assigned patients: for each assigned patient
 * the first (offset + limit) entries of its (patient_id, created_at DESC, id DESC) index range,
 * merged. Page 1 reads at most 10 index entries per assigned patient, however many rows the
 * table holds. `table` is medical_records or prescriptions (same columns, same index).
 */
export function assignedPageIds(table: ListTable, doctorId: Value<string>, w: PageWindow): SQL {
  return sql`select r.id from (${assignedPatientIds(doctorId)}) a
    cross join lateral (
      select m.id, m.created_at from ${table} m
      where m.patient_id = a.patient_id
      order by m.created_at desc, m.id desc
      limit ${w.take}
    ) r
    order by r.created_at desc, r.id desc
    limit ${w.limit} offset ${w.offset}`;
}

/**
 * How many rows a scope holds. For a doctor: one count per assigned patient through the patient
 * index, summed, so the work follows the doctor's patients, not the table's size (a plain
 * `patient_id IN (…)` count lets the planner pick a hash join over the whole table).
 */
export function scopeCount(table: ListTable, scope: Scope<Value<string>>): SQL {
  if ('patientId' in scope) return sql`select count(*) as n from ${table} where ${table.patientId} = ${scope.patientId}`;
  return sql`select coalesce(sum(c.n), 0) as n from (${assignedPatientIds(scope.assignedTo)}) a
    cross join lateral (select count(*) as n from ${table} m where m.patient_id = a.patient_id) c`;
}

type ListTable = typeof medicalRecords | typeof prescriptions;
type PageQuery<T extends ListTable> = Promise<T['$inferSelect'][]> & {
  getSQL(): SQL;
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<T['$inferSelect'][]> };
};

/** The select a page query narrows: the table's own columns (other selections are cast to it). */
const tableSelect = (db: Queryable, t: ListTable) => db.select().from(t);
type TableSelect = ReturnType<typeof tableSelect>;

/**
 * The page's rows: a patient's own through the patient index, a doctor's across assigned patients.
 * `rows` is the select it narrows (the table's columns by default; readPage's adds the total and
 * the audit CTE).
 */
function pageQuery<T extends ListTable>(
  db: Queryable,
  t: T,
  scope: Scope<Value<string>>,
  w: PageWindow,
  rows: TableSelect = tableSelect(db, t),
): PageQuery<T> {
  const order = [desc(t.createdAt), desc(t.id)];
  return ('patientId' in scope
    ? rows
        .where(eq(t.patientId, scope.patientId))
        .orderBy(...order)
        .limit(w.limit)
        .offset(w.offset)
    : rows.where(sql`${t.id} in (${assignedPageIds(t, scope.assignedTo, w)})`).orderBy(...order)) as unknown as PageQuery<T>;
}

/** The page query and the count query of a list of records or prescriptions, newest first, with their values in. */
export function listQueries<T extends ListTable>(db: Queryable, t: T, scope: ListScope, page: number, limit: number) {
  return { page: pageQuery(db, t, scope, windowOf(page, limit)), count: scopeCount(t, scope) };
}

/**
 * Who reads a list, and what: its audit rows ('list', one per patient shown) are written by the
 * same statement that reads the page (see readPage).
 */
export interface ListAudit {
  actorId: string;
  actorRole: Role;
  at: Date;
  ip: string | null;
  entity: AuditEntity;
}

/** One page of a list, as the access layer asks for it: whose, which page, and who is reading. */
export interface ListRead {
  scope: ListScope;
  page: number;
  limit: number;
  audit: ListAudit;
}

type Row<T extends ListTable> = T['$inferSelect'] & { listTotal: number | string };
type PageStatement<T extends ListTable> = { execute(values: Record<string, unknown>): Promise<Row<T>[]> };
type CountStatement = { execute(values: Record<string, unknown>): Promise<{ n: number | string }[]> };

/**
 * The audit rows of a list, as a data-modifying CTE of the read: for a patient's own list one row
 * for that patient (even an empty page: the list was looked at); for a doctor's one row per patient
 * on the page, in the order the page first shows them (none for an empty page).
 */
function listAuditRows(t: ListTable, scope: Scope<Placeholder>, w: PageWindow): SQL {
  const actor = sql`${sql.placeholder('at')}::timestamptz, ${sql.placeholder('actorId')}::uuid, ${sql.placeholder('actorRole')}::text,
    'list', ${sql.placeholder('entity')}::text`;
  const shown =
    'patientId' in scope
      ? sql`select ${actor}, ${scope.patientId}::uuid, ${sql.placeholder('ip')}::text`
      : sql`select ${actor}, s.patient_id, ${sql.placeholder('ip')}::text from (
          select m.patient_id, row_number() over (order by m.created_at desc, m.id desc) as rn
          from ${t} m where m.id in (${assignedPageIds(t, scope.assignedTo, w)})
        ) s group by s.patient_id order by min(s.rn)`;
  return auditInsert(['at', 'actorId', 'actorRole', 'action', 'entity', 'patientId', 'ip'], shown);
}

/**
 * A list's statements for one (table, scope kind), prepared once (preparedOnce): a generic plan
 * spares planning the page's lateral join on every request. The page statement also counts the
 * scope and writes the audit rows: one round trip, and a page is never returned without its audit rows.
 */
function preparedList<T extends ListTable>(db: Queryable, t: T, kind: 'patientId' | 'assignedTo') {
  const name = `${getTableName(t)}_of_${kind === 'patientId' ? 'patient' : 'assigned'}`;
  const statements = preparedOnce(db, name, () => {
    const owner = sql.placeholder('owner');
    const scope: Scope<Placeholder> = kind === 'patientId' ? { patientId: owner } : { assignedTo: owner };
    const w = { limit: sql.placeholder('limit'), offset: sql.placeholder('offset'), take: sql.placeholder('take') };
    const logged = db.$with('logged', { one: sql<number>`one` }).as(listAuditRows(t, scope, w));
    const withTotal = db
      .with(logged)
      .select({ ...getTableColumns(t as ListTable), listTotal: sql<number | string>`(${scopeCount(t, scope)})`.as('list_total') })
      .from(t as ListTable);
    return {
      // the select's extra column is typed away here and given back by PageStatement's Row
      page: pageQuery(db, t, scope, w, withTotal as unknown as TableSelect).prepare(
        `${name}_page`,
      ) as unknown as PageStatement<ListTable>,
      count: db
        .select({ n: sql<number | string>`c.n` })
        .from(sql`(${scopeCount(t, scope)}) c`)
        .prepare(`${name}_count`) as CountStatement,
    };
  });
  return statements as { page: PageStatement<T>; count: CountStatement };
}

/**
 * One page of a list, the scope's total, and the list's audit rows, in ONE statement (a second one,
 * the count, only for a page past the end, which has no row to carry the total).
 */
export async function readPage<T extends ListTable>(
  db: Queryable,
  t: T,
  { scope, page, limit, audit }: ListRead,
): Promise<{ rows: T['$inferSelect'][]; page: number; limit: number; total: number }> {
  const kind = 'patientId' in scope ? 'patientId' : 'assignedTo';
  const owner = 'patientId' in scope ? scope.patientId : scope.assignedTo;
  const statements = preparedList(db, t, kind);
  const found = await statements.page.execute({
    owner,
    ...windowOf(page, limit),
    at: audit.at.toISOString(),
    actorId: audit.actorId,
    actorRole: audit.actorRole,
    entity: audit.entity,
    ip: audit.ip,
  });
  const total = found.length ? found[0].listTotal : (await statements.count.execute({ owner }))[0].n;
  const rows = found.map(({ listTotal: _total, ...row }) => row as unknown as T['$inferSelect']);
  return { rows, page, limit, total: Number(total) };
}
