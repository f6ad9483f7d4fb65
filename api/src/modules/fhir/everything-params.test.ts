import type { Bundle, Resource } from '@medplum/fhirtypes';
import { and, eq } from 'drizzle-orm';
import { PatientAccess } from '../../access';
import { allergyIntolerances, auditLog } from '../../db/schema';
import { account, connect, prescriptionBody, recordBody, setClock, type Account } from '../../test/clinical';
import { storePdf } from '../../test/files';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';
import { loadR4Definitions, problemsOf } from '../../test/fhir-validation';

// `Patient/{id}/$everything`'s parameters (R4 patient-operation-everything): _since, _type, start,
// end and _count with next links, checked against a record written over five months.
beforeAll(loadR4Definitions);

const keyOf = (r: Resource) => `${r.resourceType}/${r.id}`;
const resources = (b: Bundle) => (b.entry ?? []).map((e) => e.resource!);
const typesIn = (b: Bundle) => [...new Set(resources(b).map((r) => r.resourceType))].sort();

describe.each(BACKENDS)('FHIR Patient/$everything parameters on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  let doctor: Account, patient: Account;
  const records: Record<'jan' | 'mar' | 'may', string> = { jan: '', mar: '', may: '' };
  let prescription: string;
  let file: string;

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter, { CLINIC_TIME_ZONE: 'UTC' });
    doctor = await account(t, 'doctor', { name: 'Dr Ada Lovelace' });
    patient = await account(t, 'patient', { name: 'Grace Hopper' });
    await connect(t, doctor, patient);

    const write = async (day: string, title: string, allergies?: string) => {
      setClock(t, `${day}T11:00:00Z`);
      const res = await t.app.inject({
        method: 'POST',
        url: `/medicalhistory/${patient.id}`,
        headers: bearer(doctor.token),
        payload: recordBody({ title, allergies, gpe: { pulse: 72, temperature: '37.0', observedAt: `${day}T10:30` } }),
      });
      expect([res.statusCode, res.json().error]).toEqual([201, undefined]);
      return res.json().record._id as string;
    };
    records.jan = await write('2025-01-10', 'January visit', 'penicillin');
    // a structured allergy entry, recorded in February
    setClock(t, '2025-02-01T09:00:00Z');
    const now = t.clock.now();
    await t.db.db.insert(allergyIntolerances).values({
      patientId: patient.id,
      substanceText: 'Latex',
      type: 'allergy',
      category: 'environment',
      criticality: 'low',
      clinicalStatus: 'active',
      verificationStatus: 'confirmed',
      recordedById: doctor.id,
      recordedByRole: 'doctor',
      recordedAt: now,
      updatedAt: now,
    });
    records.mar = await write('2025-03-10', 'March visit');
    setClock(t, '2025-03-12T09:00:00Z');
    const rx = await t.app.inject({
      method: 'POST',
      url: `/prescription/${patient.id}`,
      headers: bearer(doctor.token),
      payload: prescriptionBody(),
    });
    expect(rx.statusCode).toBe(201);
    // the March record's summary, written later (its Composition is recorded then)
    setClock(t, '2025-03-20T09:00:00Z');
    const summary = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/summary/${records.mar}`,
      headers: bearer(doctor.token),
      payload: {},
    });
    expect(summary.statusCode).toBe(200);

    setClock(t, '2025-04-01T09:00:00Z');
    await storePdf(t, patient, 'Blood test.pdf');
    records.may = await write('2025-05-10', 'May visit');
    setClock(t, '2025-06-01T09:00:00Z');

    const all = await everything();
    file = resources(all).find((r) => r.resourceType === 'DocumentReference')!.id!;
    prescription = resources(all).find((r) => r.resourceType === 'MedicationRequest')!.id!;
  }, 60_000);

  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  const get = (query: string, who: Account = doctor) =>
    t.app.inject({ method: 'GET', url: `/fhir/R4/Patient/${patient.id}/$everything${query}`, headers: bearer(who.token) });
  async function everything(query = '', who: Account = doctor): Promise<Bundle> {
    const res = await get(query, who);
    expect([query, res.statusCode]).toEqual([query, 200]);
    return res.json() as Bundle;
  }
  /** Every resource of an answer, following its next links from the first page. */
  async function allPages(query: string): Promise<{ keys: string[]; totals: number[]; pages: Bundle[] }> {
    const keys: string[] = [];
    const totals: number[] = [];
    const pages: Bundle[] = [];
    let url: string | undefined = `/fhir/R4/Patient/${patient.id}/$everything${query}`;
    while (url) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(doctor.token) });
      expect([url, res.statusCode]).toEqual([url, 200]);
      const page = res.json() as Bundle;
      pages.push(page);
      keys.push(...resources(page).map(keyOf));
      totals.push(page.total!);
      const next: string | undefined = page.link?.find((l) => l.relation === 'next')?.url;
      url = next ? next.slice(next.indexOf('/fhir/R4/')) : undefined;
    }
    return { keys, totals, pages };
  }

  it('without parameters: everything in one page, an exact total, no next link, every entry valid R4', async () => {
    const all = await everything();
    expect(typesIn(all)).toEqual([
      'AllergyIntolerance',
      'Composition',
      'DocumentReference',
      'Encounter',
      'MedicationRequest',
      'Observation',
      'Patient',
      'Practitioner',
      'RiskAssessment',
    ]);
    expect(all.total).toBe(all.entry!.length);
    expect(all.link?.map((l) => l.relation)).toEqual(['self']);
    expect(all.link![0].url).toMatch(/\/Patient\/[^/]+\/\$everything$/);
    expect(
      resources(all)
        .filter((r) => r.resourceType === 'Encounter')
        .map((r) => r.id),
    ).toEqual([records.may, records.mar, records.jan]);
  });

  it('_type: only the types named (comma-separated or repeated), and a 400 for an unknown one', async () => {
    const some = await everything('?_type=Patient,MedicationRequest');
    expect(typesIn(some)).toEqual(['MedicationRequest', 'Patient']);
    expect(some.total).toBe(2);
    const repeated = await everything('?_type=Encounter&_type=DocumentReference');
    expect(typesIn(repeated)).toEqual(['DocumentReference', 'Encounter']);
    expect(repeated.total).toBe(4);
    // The AllergyIntolerance of a record's note comes with the structured entries.
    const allergies = await everything('?_type=AllergyIntolerance');
    expect(
      resources(allergies)
        .map((r) => (r as { code?: { text?: string } }).code?.text?.toLowerCase())
        .sort(),
    ).toEqual(['latex', 'penicillin']);
  });

  it('_type=Observation reads the records only: Observations in the Bundle, one list row of medical_record', async () => {
    const rows = () =>
      t.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.patientId, patient.id), eq(auditLog.actorId, doctor.id)));
    const read = jest.spyOn(PatientAccess.prototype, 'fhirRecordOf');
    try {
      const before = (await rows()).length;
      const observations = await everything('?_type=Observation');
      expect(typesIn(observations)).toEqual(['Observation']);
      // two vital signs (pulse, temperature) and the NEWS2 score need more: at least the pulses of the three records
      expect(observations.total).toBeGreaterThanOrEqual(3);
      expect(read).toHaveBeenCalledTimes(1);
      expect(read.mock.calls[0][1]).toEqual({ kinds: ['records'] });
      expect((await rows()).slice(before).map((r) => `${r.action} ${r.entity}`)).toEqual(['list medical_record']);

      read.mockClear();
      const whole = (await rows()).length;
      await everything();
      expect(read.mock.calls[0][1]).toEqual({
        kinds: expect.arrayContaining(['doctors', 'records', 'prescriptions', 'allergies', 'files']),
      });
      expect(
        (await rows())
          .slice(whole)
          .map((r) => `${r.action} ${r.entity}`)
          .sort(),
      ).toEqual(
        [
          'list account',
          'list assignment',
          'list allergy_intolerance',
          'list medical_file',
          'list medical_record',
          'list prescription',
        ].sort(),
      );

      read.mockClear();
      const patientOnly = (await rows()).length;
      const own = await everything('?_type=Patient');
      expect(resources(own).map(keyOf)).toEqual([`Patient/${patient.id}`]);
      expect(read.mock.calls[0][1]).toEqual({ kinds: [] });
      expect((await rows()).slice(patientOnly).map((r) => `${r.action} ${r.entity}`)).toEqual(['list account']);
    } finally {
      read.mockRestore();
    }
  });

  it('_since: only what was recorded or changed at or after the instant; the Patient and Practitioners always', async () => {
    const since = await everything('?_since=2025-03-11T00:00:00Z');
    const keys = resources(since).map(keyOf);
    expect(keys).toEqual(expect.arrayContaining([`Patient/${patient.id}`, `Practitioner/${doctor.id}`]));
    expect(keys).toContain(`Encounter/${records.may}`);
    expect(keys).not.toContain(`Encounter/${records.mar}`);
    expect(keys).not.toContain(`Encounter/${records.jan}`);
    // summarised on 20 March: the March record's Composition is new, its Encounter is not
    expect(keys).toContain(`Composition/${records.mar}`);
    expect(keys).toContain(`MedicationRequest/${prescription}`);
    expect(keys).toContain(`DocumentReference/${file}`);
    expect(resources(since).filter((r) => r.resourceType === 'AllergyIntolerance')).toEqual([]);
    for (const r of resources(since)) {
      if (r.resourceType === 'Observation') expect(r.id!.startsWith(records.may)).toBe(true);
      // an assessment brought up to date later counts as changed then
      if (r.resourceType === 'RiskAssessment')
        expect(Date.parse(r.occurrenceDateTime!)).toBeGreaterThanOrEqual(Date.parse('2025-03-11'));
    }
    expect(since.total).toBe(since.entry!.length);

    const withOffset = await everything(`?_since=${encodeURIComponent('2025-01-31T23:00:00-02:00')}&_type=AllergyIntolerance`);
    expect(resources(withOffset).map((r) => (r as { code?: { text?: string } }).code?.text)).toEqual(['Latex']);
    const later = await everything('?_since=2030-01-01T00:00:00.000Z');
    expect(typesIn(later)).toEqual(['Patient', 'Practitioner']);
  });

  it('start and end: care dates in the range, both ends whole; the Patient, Practitioners and allergies always', async () => {
    const spring = await everything('?start=2025-03&end=2025-04');
    const keys = resources(spring).map(keyOf);
    expect(
      resources(spring)
        .filter((r) => r.resourceType === 'Encounter')
        .map((r) => r.id),
    ).toEqual([records.mar]);
    expect(keys).toEqual(expect.arrayContaining([`Patient/${patient.id}`, `Practitioner/${doctor.id}`]));
    expect(keys).toContain(`MedicationRequest/${prescription}`);
    expect(keys).toContain(`DocumentReference/${file}`);
    expect(keys).toContain(`Composition/${records.mar}`);
    expect(resources(spring).filter((r) => r.resourceType === 'AllergyIntolerance')).toHaveLength(2);
    for (const r of resources(spring))
      if (['Observation', 'RiskAssessment', 'Composition'].includes(r.resourceType))
        expect(r.id!.startsWith(records.mar)).toBe(true);

    const januaryDay = await everything('?end=2025-01-10&_type=Encounter,Observation');
    expect(resources(januaryDay).every((r) => r.id!.startsWith(records.jan))).toBe(true);
    expect(resources(januaryDay).map(keyOf)).toContain(`Encounter/${records.jan}`);
    const fromMay = await everything('?start=2025-05-10&_type=Encounter,MedicationRequest,DocumentReference');
    expect(resources(fromMay).map(keyOf)).toEqual([`Encounter/${records.may}`]);
    const nothing = await everything('?start=2026&_type=Encounter');
    expect([nothing.total, nothing.entry ?? []]).toEqual([0, []]);
  });

  it('pages by _count through next links: every resource once, an exact total, links carrying every parameter', async () => {
    const whole = await everything();
    const paged = await allPages('?_count=4');
    expect(paged.keys).toHaveLength(whole.total!);
    expect(new Set(paged.keys)).toEqual(new Set(resources(whole).map(keyOf)));
    expect(new Set(paged.totals)).toEqual(new Set([whole.total]));
    expect(paged.pages.length).toBe(Math.ceil(whole.total! / 4));
    expect(paged.pages[1].link?.find((l) => l.relation === 'previous')?.url).toContain('_offset=0');

    const query = `?_since=2025-01-01T00:00:00Z&_type=Observation,Encounter,MedicationRequest&start=2025-01&end=2025-12&_count=2`;
    const filtered = await allPages(query);
    const unpaged = await everything(query.replace('&_count=2', ''));
    expect(filtered.keys).toEqual(resources(unpaged).map(keyOf));
    expect(filtered.keys.length).toBe(unpaged.total);
    expect(new Set(filtered.totals)).toEqual(new Set([unpaged.total]));
    for (const page of filtered.pages)
      for (const link of page.link ?? []) {
        const params = new URL(link.url!).searchParams;
        expect([link.relation, params.get('_since'), params.get('_type'), params.get('start'), params.get('end')]).toEqual([
          link.relation,
          '2025-01-01T00:00:00Z',
          'Encounter,Observation,MedicationRequest',
          '2025-01',
          '2025-12',
        ]);
        expect(params.get('_count')).toBe('2');
      }
    // _count=0: the total alone
    const count = await everything('?_count=0');
    expect([count.total, count.entry ?? []]).toEqual([whole.total, []]);
  });

  it('a page is valid R4 (Medplum validator), entries and Bundle', async () => {
    const page = await everything('?_count=10&_offset=3');
    expect(page.entry).toHaveLength(10);
    expect([page, ...resources(page)].flatMap(problemsOf)).toEqual([]);
  });

  it('bad values answer 400 OperationOutcomes: a bad date or instant, an unknown type, an unknown parameter', async () => {
    for (const query of [
      '?start=2025-13',
      '?start=2025-02-30',
      '?end=yesterday',
      '?_since=2025-03-01',
      '?_since=2025-03-01T10:00:00',
      '?_since=soon',
      '?_type=Banana',
      '?_type=Observation,Banana',
      '?_type=',
      '?_count=-1',
      '?_count=1001',
      '?colour=blue',
    ]) {
      const res = await get(query);
      expect([query, res.statusCode]).toEqual([query, 400]);
      expect(res.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid' }] });
      expect(problemsOf(res.json())).toEqual([]);
    }
    expect((await get('?_type=Banana')).json().issue[0].diagnostics).toContain('Banana');
  });

  it('the parameters do not widen access: another patient still gets 404', async () => {
    const other = await account(t, 'patient');
    expect((await get('?_type=Patient', other)).statusCode).toBe(404);
    expect((await get('?_count=1', other)).statusCode).toBe(404);
  });

  it('the CapabilityStatement documents the operation and its parameters', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/fhir/R4/metadata' });
    const patientType = res.json().rest[0].resource.find((r: { type: string }) => r.type === 'Patient') as {
      operation: { name: string; documentation: string }[];
    };
    const op = patientType.operation.find((o) => o.name === 'everything')!;
    for (const param of ['_since', '_type', 'start', 'end', '_count']) expect(op.documentation).toContain(`\`${param}\``);
  });
});
