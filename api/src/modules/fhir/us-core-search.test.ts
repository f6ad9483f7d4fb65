import type { Bundle, BundleEntry, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { account, connect, prescriptionBody, setClock, writeRecordAt, type Account } from '../../test/clinical';
import { appPerFile, BACKENDS, bearer, type TestApp } from '../../test/helpers';
import { loadR4Definitions, problemsOf } from '../../test/fhir-validation';

// The searches US Core 6.1 requires of the types CareLoop serves, on R4's own search parameter
// definitions; every answer is checked by the R4 validator.
beforeAll(loadR4Definitions);

const VITALS = { pulse: 88, respiratoryRate: 18, oxygenSaturation: 97, observedAt: '2025-03-03T10:15' };

describe.each(BACKENDS)('FHIR searches (US Core) on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  let doctor: Account, patient: Account;
  let first: string;

  const search = async (url: string, who: Account = patient, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: `/fhir/R4/${url}`, headers: { ...bearer(who.token), ...headers } });
    return res;
  };
  const bundle = async (url: string, who?: Account) => {
    const res = await search(url, who);
    expect([url, res.statusCode]).toEqual([url, 200]);
    const b = res.json() as Bundle;
    expect(problemsOf(b)).toEqual([]);
    return b;
  };
  const matched = (b: Bundle) => (b.entry ?? []).filter((e) => e.search?.mode === 'match').map((e) => e.resource!);
  const ids = (b: Bundle) => matched(b).map((r) => r.id);
  const outcome = (b: Bundle) =>
    (b.entry ?? []).find((e: BundleEntry) => e.search?.mode === 'outcome')?.resource as OperationOutcome | undefined;

  beforeAll(async () => {
    ({ t } = fixture);
    doctor = await account(t, 'doctor', { name: 'Dr Ada Lovelace' });
    patient = await account(t, 'patient', { name: 'Grace Hopper' });
    await connect(t, doctor, patient);
    const write = (at: string, gpe: Record<string, unknown>, title: string) =>
      writeRecordAt(t, doctor, patient, at, { title, gpe, allergies: 'penicillin - anaphylaxis' });
    first = await write('2025-03-03T11:00:00Z', VITALS, 'Chest pain');
    await write('2025-03-10T09:00:00Z', { pulse: 72, observedAt: '2025-03-10T08:30' }, 'Follow-up');
    setClock(t, '2025-03-11T09:00:00Z');
    const rx = await t.app.inject({
      method: 'POST',
      url: `/prescription/${patient.id}`,
      headers: bearer(doctor.token),
      payload: prescriptionBody({ prescribedDrug: 'Metformin' }),
    });
    expect(rx.statusCode).toBe(201);
  });

  it('Observation by category, code and date with prefixes, and by status', async () => {
    const vitals = await bundle('Observation?category=vital-signs');
    expect(matched(vitals).length).toBeGreaterThan(0);
    expect(
      matched(vitals).every((o) =>
        (o as { category?: { coding?: { code?: string }[] }[] }).category?.some((c) =>
          c.coding?.some((x) => x.code === 'vital-signs'),
        ),
      ),
    ).toBe(true);
    const system = await bundle('Observation?category=http://terminology.hl7.org/CodeSystem/observation-category|vital-signs');
    expect(ids(system)).toEqual(ids(vitals));
    expect((await bundle('Observation?category=laboratory')).total).toBe(0);

    const pulses = await bundle('Observation?category=vital-signs&code=http://loinc.org|8867-4');
    expect(pulses.total).toBe(2);
    const march10 = await bundle('Observation?code=http://loinc.org|8867-4&date=ge2025-03-05');
    expect(ids(march10)[0]!.startsWith(first)).toBe(false);
    expect(march10.total).toBe(1);
    expect((await bundle('Observation?code=http://loinc.org|8867-4&date=lt2025-03-05')).total).toBe(1);
    expect((await bundle('Observation?code=http://loinc.org|8867-4&date=2025-03')).total).toBe(2);
    expect((await bundle('Observation?status=final&code=8867-4')).total).toBe(2);
    expect((await bundle('Observation?status=cancelled')).total).toBe(0);
  });

  it('_id, _lastUpdated, and _sort by date both ways', async () => {
    const all = await bundle('Observation?code=http://loinc.org|8867-4');
    const [one] = ids(all);
    expect(ids(await bundle(`Observation?_id=${one}`))).toEqual([one]);
    // each resource says when it was recorded: the first record on 3 March, the second on 10 March
    expect(matched(all).every((r) => typeof r.meta?.lastUpdated === 'string')).toBe(true);
    expect((await bundle('Observation?code=8867-4&_lastUpdated=gt2025-03-05')).total).toBe(1);
    const newest = await bundle('Observation?code=8867-4&_sort=-date');
    const oldest = await bundle('Observation?code=8867-4&_sort=date');
    expect(ids(newest)).toEqual([...ids(oldest)].reverse());
    expect(
      (matched(oldest)[0] as { effectiveDateTime?: string }).effectiveDateTime! <
        (matched(newest)[0] as { effectiveDateTime?: string }).effectiveDateTime!,
    ).toBe(true);
  });

  it('AllergyIntolerance by clinical-status; MedicationRequest by status, intent and authoredon', async () => {
    const active = await bundle('AllergyIntolerance?clinical-status=active');
    expect(active.total).toBeGreaterThan(0);
    expect((await bundle('AllergyIntolerance?clinical-status=resolved')).total).toBe(0);
    expect((await bundle('MedicationRequest?status=active&intent=order')).total).toBe(1);
    expect((await bundle('MedicationRequest?status=stopped')).total).toBe(0);
    expect((await bundle('MedicationRequest?authoredon=ge2025-03-11')).total).toBe(1);
    expect((await bundle('MedicationRequest?authoredon=lt2025-03-11')).total).toBe(0);
  });

  it('_include brings the referenced Practitioner and Encounter once each, marked include', async () => {
    const withDoctor = await bundle('MedicationRequest?_include=MedicationRequest:requester');
    const included = (withDoctor.entry ?? []).filter((e) => e.search?.mode === 'include').map((e) => e.resource!);
    expect(included.map((r) => [r.resourceType, r.id])).toEqual([['Practitioner', doctor.id]]);
    const withEncounters = await bundle('Observation?code=8867-4&_include=Observation:encounter');
    const encounters = (withEncounters.entry ?? [])
      .filter((e) => e.search?.mode === 'include')
      .map((e) => e.resource as Resource);
    expect(encounters.map((r) => r.resourceType)).toEqual(['Encounter', 'Encounter']);
  });

  it('_summary=count gives the total alone; _total=none leaves it out; _elements keeps what was asked (and what R4 requires) and says SUBSETTED', async () => {
    const counted = await bundle('Observation?code=8867-4&_summary=count');
    expect(counted.total).toBe(2);
    expect(counted.entry).toBeUndefined();
    expect((await bundle('Observation?code=8867-4&_total=none')).total).toBeUndefined();
    const slim = await bundle('Observation?code=8867-4&_elements=code,effective');
    for (const r of matched(slim)) {
      // and the mandatory status
      expect(Object.keys(r).sort()).toEqual(['code', 'effectiveDateTime', 'id', 'meta', 'resourceType', 'status']);
      expect(r.meta?.tag).toContainEqual(expect.objectContaining({ code: 'SUBSETTED' }));
    }
  });

  it('a parameter it does not know is ignored and said so in the Bundle; with Prefer: handling=strict it is refused', async () => {
    const lenient = await bundle('Observation?code=8867-4&colour=blue&subject.name=Grace');
    expect(lenient.total).toBe(2);
    expect(outcome(lenient)?.issue.map((i) => [i.severity, i.code, i.diagnostics?.split(':')[0]])).toEqual([
      ['warning', 'not-supported', 'colour'],
      ['warning', 'not-supported', 'subject.name'],
    ]);
    // the links carry only what was applied
    expect(lenient.link?.find((l) => l.relation === 'self')?.url).not.toContain('colour');
    const strict = await search('Observation?code=8867-4&colour=blue', patient, { prefer: 'handling=strict' });
    expect(strict.statusCode).toBe(400);
    expect(strict.json().issue[0].diagnostics).toContain('colour');
    expect((await search('Observation?date=yesterday')).statusCode).toBe(400);
  });

  it('the CapabilityStatement lists the US Core searches it serves', async () => {
    const metadata = (await t.app.inject({ method: 'GET', url: '/fhir/R4/metadata' })).json();
    const params = (type: string) =>
      metadata.rest[0].resource.find((r: { type: string }) => r.type === type).searchParam.map((p: { name: string }) => p.name);
    expect(params('Observation')).toEqual(
      expect.arrayContaining(['category', 'code', 'date', 'status', '_lastUpdated', '_sort', '_include']),
    );
    expect(params('AllergyIntolerance')).toEqual(expect.arrayContaining(['clinical-status']));
    expect(params('MedicationRequest')).toEqual(expect.arrayContaining(['status', 'intent', 'authoredon']));
    expect(params('DocumentReference')).toEqual(expect.arrayContaining(['category', 'type', 'date']));
    expect(metadata.rest[0].resource.find((r: { type: string }) => r.type === 'Binary').interaction).toEqual([{ code: 'read' }]);
    // it claims no OAuth service it does not run
    expect(metadata.rest[0].security.service).toBeUndefined();
  });
});
