import type { Bundle, Encounter, Observation } from '@medplum/fhirtypes';
import { getTableColumns, sql } from 'drizzle-orm';
import { medicalRecords } from '../../db/schema';
import { account, connect, recordBody, setClock, type Account } from '../../test/clinical';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';

// A patient with years of records: FHIR answers hold every one of them (never a silent cap), agree
// with the app's own list, and a read by id reads that one row, however old.
const RECORDS = 5000;

describe.each(BACKENDS)(`FHIR for a patient with ${RECORDS} records on %s`, (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  let doctor: Account, patient: Account;
  let newest: string;
  let oldest: { id: string; day: string };

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter, { CLINIC_TIME_ZONE: 'UTC' });
    doctor = await account(t, 'doctor');
    patient = await account(t, 'patient');
    await connect(t, doctor, patient);
    setClock(t, '2026-06-01T12:00:00Z');
    const res = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/${patient.id}`,
      headers: bearer(doctor.token),
      payload: recordBody({ title: 'Review', gpe: { pulse: 72, observedAt: '2026-06-01T11:30' } }),
    });
    expect(res.statusCode).toBe(201);
    newest = res.json().record._id as string;
    // The other records are copies of it, one a day further back each (a written record is
    // complete and valid; thousands through the api would only slow the suite).
    const columns = Object.values(getTableColumns(medicalRecords))
      .filter((c) => !c.generated) // computed by the database
      .map((c) => c.name);
    const value = (name: string) =>
      name === 'id'
        ? sql.raw('gen_random_uuid()')
        : name === 'created_at'
          ? sql.raw(`r.created_at - i * interval '1 day'`)
          : sql.raw(`r.${name}`);
    await t.db.db.execute(sql`insert into medical_records (${sql.raw(columns.join(', '))})
      select ${sql.join(columns.map(value), sql`, `)}
      from medical_records r, generate_series(1, ${RECORDS - 1}) i where r.id = ${newest}`);
    const found = await t.db.db.execute(sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day
        from medical_records where patient_id = ${patient.id} order by created_at asc limit 1`);
    oldest = (found as unknown as { rows: { id: string; day: string }[] }).rows[0];
  }, 120_000);

  afterAll(async () => {
    await t.app.close();
    await tdb.cleanup();
  });

  const get = async <T>(url: string, who: Account = doctor) => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
    expect([url, res.statusCode]).toEqual([url, 200]);
    return res.json() as T;
  };

  it("counts what the app's own list counts: searches and $everything hold every record", async () => {
    const list = await get<{ total: number }>('/medicalhistories?limit=1', patient);
    expect(list.total).toBe(RECORDS);
    const search = await get<Bundle>(`/fhir/R4/Encounter?patient=Patient/${patient.id}&_count=1`);
    expect(search.total).toBe(RECORDS);
    const everything = await get<Bundle>(`/fhir/R4/Patient/${patient.id}/$everything`);
    const encounters = (everything.entry ?? []).filter((e) => e.resource?.resourceType === 'Encounter');
    expect(encounters).toHaveLength(RECORDS);
    expect(encounters.some((e) => e.resource!.id === oldest.id)).toBe(true);
  });

  it("reads the oldest record's resources by id", async () => {
    const encounter = await get<Encounter>(`/fhir/R4/Encounter/${oldest.id}`);
    expect(encounter.id).toBe(oldest.id);
    // An Observation's id is its record's followed by what it measures: the same pulse, years back.
    const latest = await get<Bundle>(`/fhir/R4/Observation?patient=Patient/${patient.id}&code=8867-4&_count=1`);
    const pulseOfNewest = latest.entry![0].resource as Observation;
    expect(pulseOfNewest.id!.startsWith(newest)).toBe(true);
    const id = oldest.id + pulseOfNewest.id!.slice(newest.length);
    const pulse = await get<Observation>(`/fhir/R4/Observation/${id}`);
    expect([pulse.id, pulse.valueQuantity?.value]).toEqual([id, 72]);
  });

  it('pages a search to its last entry by its next links', async () => {
    let url: string | undefined = `/fhir/R4/Encounter?patient=Patient/${patient.id}&_count=1000`;
    const seen = new Set<string>();
    while (url) {
      const page: Bundle = await get<Bundle>(url);
      for (const e of page.entry ?? []) seen.add(e.resource!.id!);
      const next: string | undefined = page.link?.find((l) => l.relation === 'next')?.url;
      url = next ? next.slice(next.indexOf('/fhir/R4/')) : undefined;
    }
    expect(seen.size).toBe(RECORDS);
    expect(seen.has(oldest.id)).toBe(true);
  });
});
