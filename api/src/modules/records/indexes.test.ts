import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { selectRows } from '../../adapters/db';
import { BACKENDS, createTestDb, type TestDb } from '../../test/helpers';
import { prescriptionListQueries, recordListQueries, type ListScope } from '../../access';
import { readPage } from '../../access/pagination';
import { recentRecordsQuery } from '../../access/records';
import { auditLog, medicalRecords, prescriptions } from '../../db/schema';

/*
 * The list queries must stay index-driven at scale: with many rows, page 1 of a patient's list and
 * of a doctor's assigned patients' list read the (patient_id, created_at DESC, id DESC) index and
 * never scan the table. Seeded with generate_series: PATIENTS patients, ROWS records and ROWS
 * prescriptions spread evenly over them, a doctor assigned to 20 of them.
 */
const PATIENTS = 2000;

describe.each(BACKENDS)('list query plans on %s', (backend) => {
  let tdb: TestDb;
  // PLAN_ROWS=1000000 SHOW_PLANS=1 to look at a bigger table by hand.
  const ROWS = Number(process.env.PLAN_ROWS) || (backend === 'postgres' ? 100_000 : 30_000);
  const doctorId = '00000000-0000-4000-8000-00000000d0c1';
  const patientId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    const db = tdb.adapter.db;
    await db.execute(
      sql`insert into doctors (id, name, email, password_hash) values (${doctorId}, 'Dr Plan', 'plan@example.com', 'x')`,
    );
    await db.execute(
      sql.raw(`insert into patients (id, name, email, password_hash)
      select ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'P' || n, 'p' || n || '@example.com', 'x'
      from generate_series(1, ${PATIENTS}) n`),
    );
    await db.execute(
      sql.raw(`insert into assignments (doctor_id, patient_id, created_at)
      select '${doctorId}', ('00000000-0000-4000-8000-' || lpad((n * 97)::text, 12, '0'))::uuid, now() from generate_series(1, 20) n`),
    );
    await db.execute(
      sql.raw(`insert into medical_records (patient_id, doctor_id, title, biodata, doctor_info, history, systemic_history, examination, investigations, treatment, created_at)
      select ('00000000-0000-4000-8000-' || lpad((1 + n % ${PATIENTS})::text, 12, '0'))::uuid, '${doctorId}', 'R' || n,
        '{}', '{}', '{"allergies": ""}', '{}', '{}', '{}', '{}', timestamptz '2024-01-01' + n * interval '1 minute'
      from generate_series(1, ${ROWS}) n`),
    );
    await db.execute(
      sql.raw(`insert into prescriptions (patient_id, doctor_id, prescribed_drug, dosage, administration_route, dosage_frequency, assigned_by, created_at)
      select ('00000000-0000-4000-8000-' || lpad((1 + n % ${PATIENTS})::text, 12, '0'))::uuid, '${doctorId}', 'D' || n, '1', 'oral', 'od', 'Dr Plan',
        timestamptz '2024-01-01' + n * interval '1 minute'
      from generate_series(1, ${ROWS}) n`),
    );
    await db.execute(sql`analyze`);
  }, 120_000);
  afterAll(async () => {
    await tdb?.cleanup();
  });

  async function plan(query: { getSQL(): SQL }): Promise<string> {
    const rows = await selectRows<Record<string, string>>(tdb.adapter.db, sql`explain (analyze, costs off) ${query.getSQL()}`);
    const text = rows.map((r) => Object.values(r)[0]).join('\n');
    if (process.env.SHOW_PLANS) console.log(`${backend}:\n${text}`);
    return text;
  }

  it("the worklist reads each assigned patient's latest records by index, never all of their records", async () => {
    const query = recentRecordsQuery(tdb.adapter.db, doctorId);
    const text = await plan(query);
    expect(text).toContain('medical_records_patient_created_idx');
    expect(text).not.toMatch(/Seq Scan on medical_records\b/);
    // The doctor's 20 patients have ROWS / PATIENTS records each: every read of medical_records
    // returns at most a patient's latest two (or the one record a row points at).
    const scans = text.split('\n').filter((line) => /Scan .*on medical_records\b/.test(line));
    expect(scans.length).toBeGreaterThan(0);
    for (const line of scans) expect(Number(/rows=(\d+)/.exec(line)?.[1])).toBeLessThanOrEqual(2);
    const rows = await query;
    expect(rows).toHaveLength(20 * 2);
    const [one] = rows;
    const newest = await tdb.adapter.db
      .select({ id: medicalRecords.id })
      .from(medicalRecords)
      .where(eq(medicalRecords.patientId, one.patient.patient))
      .orderBy(desc(medicalRecords.createdAt), desc(medicalRecords.id))
      .limit(2);
    expect(rows.filter((r) => r.patient.patient === one.patient.patient).map((r) => r.record?.id)).toEqual(
      newest.map((r) => r.id),
    );
  });

  const scopes: [string, ListScope][] = [
    ["a patient's own list", { patientId: patientId(194) }],
    ["a doctor's assigned patients' list", { assignedTo: doctorId }],
  ];

  describe.each(scopes)('%s', (_name, scope) => {
    it.each([
      ['medical_records', recordListQueries],
      ['prescriptions', prescriptionListQueries],
    ] as const)('%s: page 1 and the count read the patient index, never the whole table', async (table, queries) => {
      const q = queries(tdb.adapter.db, scope, 1, 10);
      const pagePlan = await plan(q.page);
      expect(pagePlan).toContain(`${table}_patient_created_idx`);
      expect(pagePlan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
      // Sorting happens only over the page's ≤ 10 rows per patient, never over a whole table.
      expect(pagePlan).not.toMatch(/Sort Method: external/);

      const countPlan = await plan({ getSQL: () => q.count });
      // any index led by patient_id will do for a count (prescriptions have two)
      expect(countPlan).toMatch(new RegExp(`Index (Only )?Scan on ${table}_patient_\\w+_idx`));
      expect(countPlan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));

      const rows = await q.page;
      expect(rows).toHaveLength(10);
      const [{ n }] = await selectRows<{ n: string | number }>(tdb.adapter.db, q.count);
      expect(Number(n)).toBe('patientId' in scope ? ROWS / PATIENTS : (20 * ROWS) / PATIENTS);
    });

    it.each([
      ['medical_records', medicalRecords, recordListQueries],
      ['prescriptions', prescriptions, prescriptionListQueries],
    ] as const)(
      '%s: the prepared statement reads what the statements with the values in read, and writes the audit rows of what it shows',
      async (_t, table, queries) => {
        const db = tdb.adapter.db;
        const total = 'patientId' in scope ? ROWS / PATIENTS : (20 * ROWS) / PATIENTS;
        const last = Math.ceil(total / 10);
        const actor =
          'patientId' in scope
            ? { actorId: scope.patientId, actorRole: 'patient' as const }
            : { actorId: doctorId, actorRole: 'doctor' as const };
        const entity = table === medicalRecords ? ('medical_record' as const) : ('prescription' as const);
        // twice each: the second read reuses the statements the first one built
        for (const [i, page] of [1, 2, last, last + 1, 1].entries()) {
          const at = new Date(Date.UTC(2030, 0, 1, 0, 0, i, table === medicalRecords ? 0 : 500));
          const read = await readPage(db, table, { scope, page, limit: 10, audit: { ...actor, at, ip: '203.0.113.9', entity } });
          const expected = await queries(db, scope, page, 10).page;
          expect(read.rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
          expect(read.rows).toHaveLength(page > last ? 0 : page === last ? total - (last - 1) * 10 : 10);
          for (const r of read.rows) expect(r).not.toHaveProperty('listTotal');
          expect(read.total).toBe(total);
          // one 'list' row per patient shown, in the order the page first shows them; a patient's
          // own list is audited even when the page is empty, a doctor's empty page shows nobody
          const shown = 'patientId' in scope ? [scope.patientId] : [...new Set(expected.map((r) => r.patientId))];
          const logged = await db
            .select()
            .from(auditLog)
            .where(and(eq(auditLog.at, at), eq(auditLog.actorId, actor.actorId)))
            .orderBy(asc(auditLog.id));
          expect(logged.map((r) => r.patientId)).toEqual(shown);
          for (const r of logged) {
            expect(r).toMatchObject({ ...actor, action: 'list', entity, entityId: null, ip: '203.0.113.9', detail: null });
          }
        }
      },
    );
  });
});
