import { and, eq, gte, inArray, isNull, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Prescription } from '@careloop/shared-contracts';
import { preparedOnce, selectRows, type Queryable } from '../adapters/db';
import { patients, prescriptions } from '../db/schema';
import { assignedCondition } from './assignments';
import { auditInsert, type AuditActor } from './audit';
import { listQueries, readPage, type ListRead, type ListScope, type Page } from './pagination';
import { distinctNotes } from './records';

export type PrescriptionRow = typeof prescriptions.$inferSelect;

/** Where a prescription stands on a calendar day (YYYY-MM-DD): stopped, past its last day, or active. */
export function prescriptionStatus(row: Pick<PrescriptionRow, 'stoppedAt' | 'endsOn'>, today: string): Prescription['status'] {
  if (row.stoppedAt) return 'stopped';
  return row.endsOn !== null && row.endsOn < today ? 'completed' : 'active';
}

/** A prescription as read on `today` (the clinic's calendar), with the name of the patient it is for. */
export function toPrescription(row: PrescriptionRow, patientName: string, today: string): Prescription {
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
    status: prescriptionStatus(row, today),
    endsOn: row.endsOn,
    longTerm: row.longTerm,
    stopped: row.stoppedAt ? { at: row.stoppedAt.toISOString(), by: row.stoppedBy ?? '', reason: row.stopReason ?? '' } : null,
    override: row.override ?? null,
    uncoded: row.uncoded,
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
export async function withPatientNames(db: Queryable, rows: PrescriptionRow[], today: string): Promise<Prescription[]> {
  const names = await patientNames(
    db,
    rows.map((r) => r.patientId),
  );
  return rows.map((row) => toPrescription(row, names.get(row.patientId) ?? '', today));
}

/** A new prescription (every column but its time, which is the actor's), and who writes it. */
export type PrescriptionWrite = Omit<PrescriptionRow, 'createdAt' | 'stoppedAt' | 'stoppedBy' | 'stopReason'> & {
  actor: AuditActor;
  /** the override's audit detail, when the doctor proceeded past stop alerts */
  overrideDetail: string | null;
};

/**
 * The prescription and its audit rows ('create', and 'override' when a reason was given) in ONE
 * prepared statement, written only if the doctor is still assigned to the patient when it runs
 * (assignedCondition, evaluated once for both inserts): undefined when not. No transaction needed:
 * one statement is atomic.
 */
export async function writePrescription(db: Queryable, w: PrescriptionWrite): Promise<PrescriptionRow | undefined> {
  const statement = preparedOnce(db, 'prescription_write', () => {
    const v = (name: keyof PrescriptionWrite | keyof AuditActor) => sql.placeholder(name);
    const assigned = assignedCondition(v('doctorId'), v('patientId'));
    const logged = db.$with('logged', { one: sql<number>`one` }).as(
      auditInsert(
        ['at', 'actorId', 'actorRole', 'action', 'entity', 'entityId', 'patientId', 'ip', 'detail'],
        sql`select ${v('at')}::timestamptz, ${v('actorId')}::uuid, ${v('actorRole')}::text, e.action, 'prescription',
          ${v('id')}::uuid, ${v('patientId')}::uuid, ${v('ip')}::text, e.detail
        from (values (1, 'create', null::text), (2, 'override', ${v('overrideDetail')}::text)) e(n, action, detail)
        where (e.n = 1 or e.detail is not null) and ${assigned}
        order by e.n`,
      ),
    );
    // drizzle lists every column of the table, in declaration order, before the select
    return db
      .with(logged)
      .insert(prescriptions)
      .select(
        sql`select ${v('id')}::uuid, ${v('patientId')}::uuid, ${v('doctorId')}::uuid, ${v('prescribedDrug')}::text,
          ${v('dosage')}::text, ${v('administrationRoute')}::text, ${v('dosageFrequency')}::text, ${v('allergies')}::text[],
          ${v('assignedBy')}::text, ${v('at')}::timestamptz, ${v('endsOn')}::date, ${v('longTerm')}::boolean,
          null, null, null, ${v('override')}::jsonb, ${v('uncoded')}::text[]
        where ${assigned}`,
      )
      .returning()
      .prepare('prescription_write');
  });
  const { actor, override, ...values } = w;
  const [row] = await statement.execute({
    ...values,
    ...actor,
    at: actor.at.toISOString(),
    override: override ? JSON.stringify(override) : null,
  });
  return row;
}

export async function findPrescription(db: Queryable, id: string): Promise<PrescriptionRow | undefined> {
  const [row] = await db.select().from(prescriptions).where(eq(prescriptions.id, id)).limit(1);
  return row;
}

/** The prescription list's queries (exported so a test can EXPLAIN exactly these). */
export const prescriptionListQueries = (db: Queryable, scope: ListScope, page: number, limit: number) =>
  listQueries(db, prescriptions, scope, page, limit);

export async function listPrescriptions(db: Queryable, read: ListRead, today: string): Promise<Page<Prescription>> {
  const { rows, ...page } = await readPage(db, prescriptions, read);
  return { items: await withPatientNames(db, rows, today), ...page };
}

/** Stops a prescription still active on `today`: undefined when it was already stopped or is past its last day. */
export async function stopPrescription(
  db: Queryable,
  id: string,
  stop: { at: Date; by: string; reason: string; today: string },
): Promise<PrescriptionRow | undefined> {
  const p = prescriptions;
  const [row] = await db
    .update(p)
    .set({ stoppedAt: stop.at, stoppedBy: stop.by, stopReason: stop.reason })
    .where(and(eq(p.id, id), isNull(p.stoppedAt), or(isNull(p.endsOn), gte(p.endsOn, stop.today))))
    .returning();
  return row;
}

/**
 * The drug of every prescription of the patient still active on `today` (not stopped, not past its
 * last day), each text once where it was first written, oldest first (column `drug`): a query of its
 * own or a part of the prescribing context's one statement (prescribing.ts). A patient with thousands
 * of prescriptions sends back a handful of names. The database skips from one drug to the next
 * through prescriptions_patient_drug_idx (a recursive "loose index scan"), so the check reads about
 * one index entry per distinct drug, not the whole history; it returns what `distinct on (drug) …
 * order by drug, created_at, id` over the active rows returns (the test compares).
 */
export function prescribedDrugRows(patientId: string | Placeholder, today: string | Placeholder): SQL {
  const p = prescriptions;
  const active = sql`${p.stoppedAt} is null and (${p.endsOn} is null or ${p.endsOn} >= ${today}::date)`;
  return sql`with recursive d(drug, at, id) as (
      (select ${p.prescribedDrug}, ${p.createdAt}, ${p.id} from ${p} where ${p.patientId} = ${patientId} and ${active}
        order by ${p.prescribedDrug}, ${p.createdAt}, ${p.id} limit 1)
      union all
      select n.drug, n.at, n.id from d cross join lateral (
        select ${p.prescribedDrug} as drug, ${p.createdAt} as at, ${p.id} as id from ${p}
        where ${p.patientId} = ${patientId} and ${p.prescribedDrug} > d.drug and ${active}
        order by ${p.prescribedDrug}, ${p.createdAt}, ${p.id} limit 1
      ) n
    )
    select d.drug, d.at, d.id from d order by d.at asc, d.id asc`;
}

/**
 * The "active medications" of the interaction check on `today`: the active drugs (prescribedDrugRows),
 * with spellings that differ only in case or spacing merged (distinctNotes, as allergy notes are).
 */
export async function prescribedDrugsOf(db: Queryable, patientId: string, today: string): Promise<string[]> {
  const rows = await selectRows<{ drug: string }>(db, prescribedDrugRows(patientId, today));
  return distinctNotes(rows.map((r) => r.drug));
}
