import type { AllergyIntolerance, Bundle, Observation, Resource, RiskAssessment } from '@medplum/fhirtypes';
import type { Assessment } from '@careloop/shared-contracts';
import { and, eq } from 'drizzle-orm';
import { Client } from 'fhir-kit-client';
import { revokeAssignment } from '../../access';
import { allergyIntolerances, auditLog, medicalRecords } from '../../db/schema';
import { newAllergy } from '../../test/allergies';
import { account, connect, prescriptionBody, recordBody, writeRecordAt, type Account } from '../../test/clinical';
import { storePdf } from '../../test/files';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';
import { loadR4Definitions, problemsOf } from '../../test/fhir-validation';
import { freePort } from '../../test/faults-kit';

// The official R4 StructureDefinitions, checked by a validator CareLoop did not write.
beforeAll(loadR4Definitions);

/** Every NEWS2 parameter plus a glucose, observed at 10:15 clinic time. */
const ALL_VITALS = {
  bloodPressure: '128/84',
  pulse: 88,
  respiratoryRate: 18,
  temperature: '37.2',
  oxygenSaturation: 97,
  supplementalOxygen: false,
  consciousness: 'A',
  bloodSugarLevel: '5.4 mmol/L',
  observedAt: '2025-03-03T10:15',
};

const types = (b: Bundle) => (b.entry ?? []).map((e) => e.resource!.resourceType);

describe.each(BACKENDS)('FHIR R4 api on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  let base: string;
  let doctor: Account, patient: Account, other: Account, stranger: Account, revoked: Account;
  let firstRecord: string;

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    // Links in Bundles are built on API_PUBLIC_URL: the client follows them to this server.
    const port = await freePort();
    t = await createTestApp(tdb.adapter, { CLINIC_TIME_ZONE: 'Europe/London', API_PUBLIC_URL: `http://127.0.0.1:${port}` });
    await t.app.listen({ port, host: '127.0.0.1' });
    base = `http://127.0.0.1:${port}/fhir/R4`;

    doctor = await account(t, 'doctor', { name: 'Dr Ada Lovelace' });
    patient = await account(t, 'patient', { name: 'Grace Hopper' });
    other = await account(t, 'patient');
    stranger = await account(t, 'doctor');
    revoked = await account(t, 'doctor');
    await connect(t, doctor, patient);
    await connect(t, revoked, patient);

    const write = (at: string, gpe: Record<string, unknown>, title: string) =>
      writeRecordAt(t, doctor, patient, at, { title, gpe, allergies: 'penicillin' });
    firstRecord = await write('2025-03-03T11:00:00Z', ALL_VITALS, 'Chest pain');
    await write('2025-03-10T09:00:00Z', { pulse: 72, bloodSugarLevel: '110 mg/dL', temperature: '9' }, 'Follow-up');
    await write('2025-03-17T09:00:00Z', { pulse: 64, temperature: '98.6 °F' }, 'Second follow-up');

    const summary = await t.app.inject({
      method: 'POST',
      url: `/medicalhistory/summary/${firstRecord}`,
      headers: bearer(doctor.token),
      payload: {},
    });
    expect(summary.statusCode).toBe(200);
    const rx = await t.app.inject({
      method: 'POST',
      url: `/prescription/${patient.id}`,
      headers: bearer(doctor.token),
      payload: prescriptionBody(),
    });
    expect(rx.statusCode).toBe(201);

    await storePdf(t, patient, 'Blood test.pdf');

    const now = t.clock.now();
    await t.db.db.insert(allergyIntolerances).values({
      patientId: patient.id,
      substanceText: 'Penicillin',
      substanceCode: 'penicillin',
      type: 'allergy',
      category: 'medication',
      criticality: 'high',
      reactions: [{ manifestation: 'Hives', severity: 'moderate' }],
      clinicalStatus: 'active',
      verificationStatus: 'confirmed',
      note: 'Since childhood',
      recordedById: doctor.id,
      recordedByRole: 'doctor',
      recordedAt: now,
      updatedAt: now,
    });

    const ended = await revokeAssignment(
      t.db.db,
      { actorId: patient.id, actorRole: 'patient', at: now, ip: null },
      revoked.id,
      patient.id,
    );
    expect(ended).toBe(true);
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  const client = (who: Account) => new Client({ baseUrl: base, bearerToken: who.token });
  const get = (who: Account | null, url: string) => t.app.inject({ method: 'GET', url, headers: who ? bearer(who.token) : {} });

  it('has a validator that does find errors (so 0 errors below means something)', () => {
    expect(problemsOf({ resourceType: 'Observation', id: 'x', code: { text: 'x' } } as Resource)).not.toEqual([]);
    expect(problemsOf({ resourceType: 'Patient', id: 'x', birthDate: '23/11/2020' } as Resource)).not.toEqual([]);
    // RiskAssessment: a missing subject, and a probability over 100 % (ras-2 is set aside only without one)
    expect(problemsOf({ resourceType: 'RiskAssessment', id: 'x', status: 'final' } as Resource)).not.toEqual([]);
    const over100 = {
      resourceType: 'RiskAssessment',
      id: 'x',
      status: 'final',
      subject: { reference: 'Patient/p' },
      prediction: [{ outcome: { text: 'x' }, probabilityDecimal: 150 }],
    } as Resource;
    expect(problemsOf(over100)).toEqual([expect.stringContaining('(probability as decimal) <= 100')]);
  });

  it("reads the patient's $everything with a FHIR client: every resource type, each valid R4 (0 errors)", async () => {
    const bundle = (await client(patient).operation({
      name: '$everything',
      resourceType: 'Patient',
      id: patient.id,
      method: 'GET',
    })) as unknown as Bundle;
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.type).toBe('searchset');
    expect(new Set(types(bundle))).toEqual(
      new Set([
        'Patient',
        'Practitioner',
        'Encounter',
        'Observation',
        'Composition',
        'AllergyIntolerance',
        'MedicationRequest',
        'DocumentReference',
        'RiskAssessment',
      ]),
    );
    const problems = [bundle, ...bundle.entry!.map((e) => e.resource!)].flatMap(problemsOf);
    expect(problems).toEqual([]);

    // the patient, from the profile
    const p = bundle.entry!.find((e) => e.resource!.resourceType === 'Patient')!.resource!;
    expect(p).toMatchObject({
      id: patient.id,
      name: [{ text: 'Grace Hopper' }],
      telecom: [{ system: 'email', value: patient.email }],
    });
    // three encounters, the first with its mode of admission and date
    const encounters = bundle.entry!.filter((e) => e.resource!.resourceType === 'Encounter').map((e) => e.resource!);
    expect(encounters).toHaveLength(3);
    expect(encounters.find((e) => e.id === firstRecord)).toMatchObject({
      class: { code: 'EMER' },
      period: { start: '2025-03-03' },
      hospitalization: { admitSource: { text: 'Emergency' } },
    });
  });

  it('maps every measured vital sign to its LOINC code and UCUM unit, and NEWS2 with its method', async () => {
    const bundle = (await client(doctor).search({
      resourceType: 'Observation',
      searchParams: { patient: patient.id, _count: 100 },
    })) as unknown as Bundle<Observation>;
    const first = bundle.entry!.map((e) => e.resource!).filter((o) => o.encounter?.reference === `Encounter/${firstRecord}`);
    const byCode = Object.fromEntries(first.map((o) => [o.code.coding?.[0]?.code ?? o.code.text, o]));
    expect(Object.keys(byCode).sort()).toEqual(
      ['15074-8', '59408-5', '8310-5', '8867-4', '85354-9', '9279-1', 'NEWS2 score'].sort(),
    );
    expect(byCode['8867-4'].valueQuantity).toEqual({
      value: 88,
      unit: '/min',
      system: 'http://unitsofmeasure.org',
      code: '/min',
    });
    expect(byCode['8310-5'].valueQuantity).toMatchObject({ value: 37.2, code: 'Cel' });
    expect(byCode['59408-5'].valueQuantity).toMatchObject({ value: 97, code: '%' });
    expect(byCode['15074-8'].valueQuantity).toMatchObject({ value: 5.4, code: 'mmol/L' });
    expect(byCode['85354-9'].component).toEqual([
      expect.objectContaining({
        code: { coding: [expect.objectContaining({ code: '8480-6' })] },
        valueQuantity: expect.objectContaining({ value: 128, code: 'mm[Hg]' }),
      }),
      expect.objectContaining({
        code: { coding: [expect.objectContaining({ code: '8462-4' })] },
        valueQuantity: expect.objectContaining({ value: 84, code: 'mm[Hg]' }),
      }),
    ]);
    expect(byCode['NEWS2 score']).toMatchObject({ valueInteger: 0, method: { text: expect.stringContaining('2017') } });
    // observed at 10:15 London time (GMT in March)
    expect(byCode['8867-4'].effectiveDateTime).toBe('2025-03-03T10:15:00.000Z');
    expect(byCode['8867-4'].id).toBe(`${firstRecord}-8867-4`);
    // the others: glucose in mg/dL under 2339-0, a temperature in °F as written; the implausible 9 °C is not exported
    const all = bundle.entry!.map((e) => e.resource!);
    expect(all.find((o) => o.code.coding?.[0]?.code === '2339-0')?.valueQuantity).toMatchObject({ value: 110, code: 'mg/dL' });
    expect(all.find((o) => o.valueQuantity?.code === '[degF]')?.valueQuantity?.value).toBe(98.6);
    expect(all.filter((o) => o.code.coding?.[0]?.code === '8310-5').map((o) => o.valueQuantity?.value)).toHaveLength(2);
  });

  it('searches Observation by patient and code: only the heart rates; _count pages with next links', async () => {
    const fhir = client(patient);
    const rates = (await fhir.search({
      resourceType: 'Observation',
      searchParams: { patient: `Patient/${patient.id}`, code: 'http://loinc.org|8867-4' },
    })) as unknown as Bundle<Observation>;
    expect(rates.total).toBe(3);
    expect(rates.entry!.map((e) => e.resource!.valueQuantity!.value).sort()).toEqual([64, 72, 88]);
    expect(rates.entry!.every((e) => e.resource!.code.coding![0].code === '8867-4')).toBe(true);

    const seen: number[] = [];
    let page = (await fhir.search({
      resourceType: 'Observation',
      searchParams: { patient: patient.id, code: 'http://loinc.org|8867-4', _count: 2 },
    })) as unknown as Bundle<Observation>;
    expect(page.entry).toHaveLength(2);
    for (;;) {
      seen.push(...page.entry!.map((e) => e.resource!.valueQuantity!.value!));
      if (!page.link?.some((l) => l.relation === 'next')) break;
      page = (await fhir.nextPage({ bundle: page as never })) as unknown as Bundle<Observation>;
    }
    expect(seen.sort()).toEqual([64, 72, 88]);

    const inMarch10 = (await fhir.search({
      resourceType: 'Observation',
      searchParams: { patient: patient.id, code: '8867-4', date: '2025-03-10' },
    })) as unknown as Bundle<Observation>;
    expect(inMarch10.entry!.map((e) => e.resource!.valueQuantity!.value)).toEqual([72]);
  });

  it('builds every link on API_PUBLIC_URL: a forged Host header changes no fullUrl, paging link or metadata URL', async () => {
    const forged = { ...bearer(patient.token), host: 'evil.example', 'x-forwarded-host': 'evil.example' };
    const page = await t.app.inject({
      method: 'GET',
      url: `/fhir/R4/Observation?patient=${patient.id}&_count=1`,
      headers: forged,
    });
    expect(page.statusCode).toBe(200);
    const bundle = page.json() as Bundle;
    const urls = [...(bundle.link ?? []).map((l) => l.url), ...(bundle.entry ?? []).map((e) => e.fullUrl)];
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls) expect(url!.startsWith(`${base}/`)).toBe(true);
    const metadata = await t.app.inject({ method: 'GET', url: '/fhir/R4/metadata', headers: { host: 'evil.example' } });
    expect(metadata.body).not.toContain('evil.example');
    expect(metadata.body).toContain(base.replace('/fhir/R4', ''));
  });

  it('reads each resource by id, as the patient and as the assigned doctor', async () => {
    const everything = (await client(patient).operation({
      name: '$everything',
      resourceType: 'Patient',
      id: patient.id,
      method: 'GET',
    })) as unknown as Bundle;
    for (const who of [patient, doctor]) {
      for (const type of new Set(types(everything))) {
        const sample = everything.entry!.find((e) => e.resource!.resourceType === type)!.resource!;
        const read = await client(who).read({ resourceType: type, id: sample.id! });
        expect(read).toEqual(type === 'DocumentReference' ? expect.objectContaining({ id: sample.id }) : sample);
      }
    }
    const record = await get(doctor, `/fhir/R4/Encounter/${firstRecord}`);
    expect(record.headers['content-type']).toMatch(/^application\/fhir\+json/);
  });

  it("exports the allergy its records' notes state, unconfirmed, with the note as written; readable by id (hazard L4)", async () => {
    const bundle = (await client(doctor).search({
      resourceType: 'AllergyIntolerance',
      searchParams: { patient: patient.id },
    })) as unknown as Bundle<AllergyIntolerance>;
    const allergies = bundle.entry!.map((e) => e.resource!);
    // the structured entry (confirmed) and the records' note "penicillin", which no entry reviews
    const fromNote = allergies.filter((a) => a.verificationStatus?.coding?.[0]?.code === 'unconfirmed');
    expect(fromNote).toHaveLength(1);
    expect(fromNote[0]).toMatchObject({
      code: { text: 'penicillin' },
      clinicalStatus: { coding: [{ code: 'active' }] },
      patient: { reference: `Patient/${patient.id}` },
      recorder: { reference: `Practitioner/${doctor.id}` },
      recordedDate: '2025-03-03T11:00:00.000Z',
      note: [{ text: 'Not yet reviewed; as written in a medical record: "penicillin"' }],
    });
    expect(fromNote.flatMap(problemsOf)).toEqual([]);
    for (const who of [patient, doctor])
      expect(await client(who).read({ resourceType: 'AllergyIntolerance', id: fromNote[0].id! })).toEqual(fromNote[0]);
    for (const who of [other, stranger]) {
      const res = await get(who, `/fhir/R4/AllergyIntolerance/${fromNote[0].id}`);
      expect(res.statusCode).toBe(404);
    }
    // the doctor whose connection ended is told so
    expect((await get(revoked, `/fhir/R4/AllergyIntolerance/${fromNote[0].id}`)).statusCode).toBe(403);
    // an id of the note form naming nobody's data is a plain 404
    const made = `${other.id}${fromNote[0].id!.slice(36)}`;
    expect((await get(other, `/fhir/R4/AllergyIntolerance/${made}`)).statusCode).toBe(404);
  });

  describe('the assessment as a RiskAssessment (hazard H26)', () => {
    let ill: Account;
    let recordId: string;
    const RISK = 'http://terminology.hl7.org/CodeSystem/risk-probability';
    const stored = async () => {
      const res = await get(doctor, `/medicalHistory/${recordId}`);
      expect(res.statusCode).toBe(200);
      return res.json().assessment as Assessment;
    };
    const riskOf = async (who: Account) =>
      (await client(who).read({ resourceType: 'RiskAssessment', id: `${recordId}-assessment` })) as unknown as RiskAssessment;

    beforeAll(async () => {
      ill = await account(t, 'patient', { name: 'Ida Weiss' });
      await connect(t, doctor, ill);
      const res = await t.app.inject({
        method: 'POST',
        url: `/medicalhistory/${ill.id}`,
        headers: bearer(doctor.token),
        payload: recordBody({ title: 'Collapse', gpe: { pulse: 25 }, drug: 'Amoxicillin' }),
      });
      expect([res.statusCode, res.json().error]).toEqual([201, undefined]);
      recordId = res.json().record._id;
    });

    it('exports the stored assessment in $everything: valid R4, one prediction per finding, the caveats as notes', async () => {
      const bundle = (await client(ill).operation({
        name: '$everything',
        resourceType: 'Patient',
        id: ill.id,
        method: 'GET',
      })) as unknown as Bundle;
      const risks = bundle.entry!.map((e) => e.resource!).filter((r): r is RiskAssessment => r.resourceType === 'RiskAssessment');
      expect(risks).toHaveLength(1);
      const [risk] = risks;
      expect(risks.flatMap(problemsOf)).toEqual([]);
      const assessment = await stored();
      expect(assessment.acuity).toBe('emergency');
      expect(risk).toMatchObject({
        id: `${recordId}-assessment`,
        status: 'final',
        subject: { reference: `Patient/${ill.id}` },
        encounter: { reference: `Encounter/${recordId}` },
        occurrenceDateTime: assessment.computedAt,
        note: [{ text: 'Age unknown — adult NEWS2 used.' }],
      });
      expect(risk.prediction![0]).toMatchObject({
        outcome: { text: 'Critical: pulse 25 /min' },
        qualitativeRisk: { coding: [{ system: RISK, code: 'high' }], text: 'Emergency' },
      });
      // the stored findings, one each, in their order; its reasons are the outcomes of those that alert
      expect(risk.prediction!.map((p) => p.outcome!.text)).toEqual(assessment.findings.map((f) => f.title));
      expect(risk.prediction!.filter((p) => p.qualitativeRisk!.text !== 'No alert').map((p) => p.outcome!.text)).toEqual(
        assessment.reasons,
      );
      const RISK_OF = { emergency: 'high', urgent: 'high', review: 'moderate', none: 'low' };
      expect(risk.prediction!.map((p) => p.qualitativeRisk!.coding![0].code)).toEqual(
        assessment.findings.map((f) => RISK_OF[f.acuity]),
      );
      // no medication alert yet: nothing on file against amoxicillin
      expect(risk.prediction!.map((p) => p.outcome!.text)).not.toContainEqual(expect.stringMatching(/allerg/i));
      // searchable by patient, and the same resource read by id
      const found = (await client(doctor).search({
        resourceType: 'RiskAssessment',
        searchParams: { patient: ill.id },
      })) as unknown as Bundle<RiskAssessment>;
      expect(found.entry!.map((e) => e.resource)).toEqual([risk]);
      expect(await riskOf(ill)).toEqual(risk);
    });

    it('is read by id by the patient and the assigned doctor; 404 for an unassigned doctor, another patient or a made-up id', async () => {
      expect((await riskOf(ill)).id).toBe(`${recordId}-assessment`);
      expect((await riskOf(doctor)).id).toBe(`${recordId}-assessment`);
      for (const who of [stranger, other, revoked]) {
        const res = await get(who, `/fhir/R4/RiskAssessment/${recordId}-assessment`);
        expect(res.statusCode).toBe(404);
        expect(res.json().issue[0].diagnostics).toBe(`RiskAssessment/${recordId}-assessment not found`);
      }
      for (const id of [
        recordId,
        `${recordId}-assessments`,
        `${recordId}-8867-4`,
        '00000000-0000-4000-8000-000000000000-assessment',
      ])
        expect([id, (await get(doctor, `/fhir/R4/RiskAssessment/${id}`)).statusCode]).toEqual([id, 404]);
    });

    it('exports the current assessment after an allergy is added, never the stale stored one', async () => {
      const before = await stored();
      await newAllergy(t, doctor, ill.id, { substance: { text: 'Penicillin' } });
      // stored, and now out of date: it was computed before the allergy
      const [row] = await t.db.db.select().from(medicalRecords).where(eq(medicalRecords.id, recordId));
      expect(row.assessment!.contextVersion).toBe(before.contextVersion);
      expect(row.assessment!.medicationAlerts).toEqual([]);

      const risk = await riskOf(ill);
      expect(problemsOf(risk)).toEqual([]);
      const medication = risk.prediction!.filter((p) => /penicillin|allerg/i.test(`${p.outcome!.text} ${p.rationale}`));
      expect(medication).toHaveLength(1);
      expect(medication[0].qualitativeRisk).toMatchObject({ coding: [{ system: RISK, code: 'high' }], text: 'Urgent' });
      // the read brought the stored assessment up to date, and exported exactly it
      const current = await stored();
      expect(current.contextVersion).toBeGreaterThan(before.contextVersion);
      expect(current.medicationAlerts).not.toEqual([]);
      expect(risk.occurrenceDateTime).toBe(current.computedAt);
      expect(risk.prediction!.map((p) => p.outcome!.text)).toEqual(current.findings.map((f) => f.title));
      const everything = (await client(doctor).operation({
        name: '$everything',
        resourceType: 'Patient',
        id: ill.id,
        method: 'GET',
      })) as unknown as Bundle;
      expect(everything.entry!.find((e) => e.resource!.resourceType === 'RiskAssessment')!.resource).toEqual(risk);
    });
  });

  it("points the document at its Binary, which serves the PDF as a resource or as itself to whoever may read the patient's data", async () => {
    const docs = (await client(patient).search({ resourceType: 'DocumentReference', searchParams: {} })) as unknown as Bundle;
    const doc = docs.entry![0].resource as { id: string; content: { attachment: { url: string; title: string } }[] };
    expect(doc.content[0].attachment.title).toBe('Blood test.pdf');
    // a lasting reference, not a link that expires in an export
    expect(doc.content[0].attachment.url).toBe(`${base}/Binary/${doc.id}`);
    const binaryUrl = `/fhir/R4/Binary/${doc.id}`;
    const asResource = await get(doctor, binaryUrl);
    expect(asResource.statusCode).toBe(200);
    const binary = asResource.json();
    expect(problemsOf(binary)).toEqual([]);
    expect(binary).toMatchObject({ resourceType: 'Binary', id: doc.id, contentType: 'application/pdf' });
    expect(Buffer.from(binary.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const asPdf = await t.app.inject({
      method: 'GET',
      url: binaryUrl,
      headers: { ...bearer(patient.token), accept: 'application/pdf' },
    });
    expect([asPdf.statusCode, asPdf.headers['content-type']]).toEqual([200, 'application/pdf']);
    expect(asPdf.rawPayload.equals(Buffer.from(binary.data, 'base64'))).toBe(true);
    // read as the file itself: audited as a read of it
    const reads = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'medical_file'), eq(auditLog.action, 'read'), eq(auditLog.entityId, doc.id)));
    expect(reads.map((r) => r.actorId)).toEqual(expect.arrayContaining([doctor.id, patient.id]));
    // nobody else, and nothing but JSON or the PDF
    expect((await get(other, binaryUrl)).statusCode).toBe(404);
    expect((await get(stranger, binaryUrl)).statusCode).toBe(404);
    expect((await get(null, binaryUrl)).statusCode).toBe(401);
    expect((await get(patient, '/fhir/R4/Binary/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const xml = await t.app.inject({
      method: 'GET',
      url: binaryUrl,
      headers: { ...bearer(patient.token), accept: 'application/fhir+xml' },
    });
    expect(xml.statusCode).toBe(406);
  });

  it('answers 404 alike to another patient and an unassigned doctor, 403 "no longer" to a revoked one; 401 without a token', async () => {
    const urls = [
      `/fhir/R4/Patient/${patient.id}/$everything`,
      `/fhir/R4/Patient/${patient.id}`,
      `/fhir/R4/Encounter/${firstRecord}`,
      `/fhir/R4/Observation/${firstRecord}-8867-4`,
      `/fhir/R4/RiskAssessment/${firstRecord}-assessment`,
      `/fhir/R4/RiskAssessment?patient=${patient.id}`,
      `/fhir/R4/Observation?patient=${patient.id}&code=http://loinc.org|8867-4`,
    ];
    for (const who of [other, stranger]) {
      for (const url of urls) {
        const res = await get(who, url);
        expect([url, res.statusCode]).toEqual([url, 404]);
        expect(res.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-found' }] });
        expect(problemsOf(res.json())).toEqual([]);
      }
    }
    // a doctor whose connection ended knew the patient: told why, as everywhere in the api
    for (const url of urls) {
      const res = await get(revoked, url);
      expect([url, res.statusCode]).toEqual([url, 403]);
      expect(res.json()).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', diagnostics: "You no longer have access to this patient's records" }],
      });
      expect(problemsOf(res.json())).toEqual([]);
    }
    // the same text for a missing id as for someone else's
    const missing = await get(other, '/fhir/R4/Encounter/00000000-0000-4000-8000-000000000000');
    const theirs = await get(other, `/fhir/R4/Encounter/${firstRecord}`);
    expect(missing.json().issue[0].diagnostics).toBe('Encounter/00000000-0000-4000-8000-000000000000 not found');
    expect(theirs.json().issue[0].diagnostics).toBe(`Encounter/${firstRecord} not found`);
    // through the client too
    await expect(client(stranger).read({ resourceType: 'Patient', id: patient.id })).rejects.toMatchObject({
      response: { status: 404 },
    });
    const anonymous = await get(null, `/fhir/R4/Patient/${patient.id}/$everything`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ resourceType: 'OperationOutcome' });
  });

  it('refuses bad search parameter values with 400 and a doctor search without a patient', async () => {
    expect((await get(patient, '/fhir/R4/Observation?date=yesterday')).statusCode).toBe(400);
    expect((await get(patient, '/fhir/R4/Observation?_count=-1')).statusCode).toBe(400);
    const noPatient = await get(doctor, '/fhir/R4/Observation');
    expect(noPatient.statusCode).toBe(400);
    expect(problemsOf(noPatient.json())).toEqual([]);
  });

  it('answers 406 to a client that asked for XML (Accept or _format), JSON to one that allows it', async () => {
    const ask = (url: string, accept?: string) =>
      t.app.inject({ method: 'GET', url, headers: { ...bearer(patient.token), ...(accept ? { accept } : {}) } });
    for (const [url, accept] of [
      ['/fhir/R4/Observation', 'application/fhir+xml'],
      ['/fhir/R4/Observation', 'application/xml, text/xml;q=0.5'],
      ['/fhir/R4/Observation?_format=xml', undefined],
      ['/fhir/R4/Observation?_format=application/fhir%2Bxml', 'application/fhir+json'],
      ['/fhir/R4/metadata', 'application/fhir+xml'],
    ] as const) {
      const res = await ask(url, accept);
      expect([url, accept, res.statusCode]).toEqual([url, accept, 406]);
      expect(res.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'not-supported' }] });
    }
    for (const [url, accept] of [
      ['/fhir/R4/Observation', undefined],
      ['/fhir/R4/Observation', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
      ['/fhir/R4/Observation', 'application/json'],
      ['/fhir/R4/Observation?_format=json', 'application/fhir+xml'],
    ] as const)
      expect([url, accept, (await ask(url, accept)).statusCode]).toEqual([url, accept, 200]);
  });

  it('searches MedicationRequest by authoredon (R4), refuses its date and a subject where R4 has none', async () => {
    const written = await get(patient, '/fhir/R4/MedicationRequest?authoredon=ge2000-01-01');
    expect(written.statusCode).toBe(200);
    expect((written.json() as Bundle).total).toBeGreaterThan(0);
    expect((await get(patient, '/fhir/R4/MedicationRequest?authoredon=lt2000-01-01')).json().total).toBe(0);
    expect((await get(patient, '/fhir/R4/MedicationRequest?date=ge2000-01-01')).statusCode).toBe(400);
    expect((await get(patient, '/fhir/R4/Observation?authoredon=ge2000-01-01')).statusCode).toBe(400);
    expect((await get(patient, `/fhir/R4/AllergyIntolerance?subject=Patient/${patient.id}`)).statusCode).toBe(400);
    expect((await get(patient, `/fhir/R4/Observation?subject=Patient/${patient.id}`)).statusCode).toBe(200);
    const metadata = (await get(null, '/fhir/R4/metadata')).json();
    const params = (type: string) =>
      metadata.rest[0].resource.find((r: { type: string }) => r.type === type).searchParam.map((p: { name: string }) => p.name);
    expect(params('Observation')).toEqual(expect.arrayContaining(['patient', 'subject', 'code', 'date']));
    expect(params('MedicationRequest')).toEqual(expect.arrayContaining(['patient', 'subject', 'authoredon']));
    expect(params('MedicationRequest')).not.toContain('date');
    expect(params('AllergyIntolerance')).not.toContain('subject');
  });

  it('audits FHIR reads as the app does: list rows for a search and $everything, a read row by id', async () => {
    const rows = () =>
      t.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.patientId, patient.id), eq(auditLog.actorId, doctor.id)));
    const before = (await rows()).length;
    await get(doctor, `/fhir/R4/Patient/${patient.id}/$everything`);
    const afterEverything = (await rows()).slice(before);
    expect(afterEverything.map((r) => `${r.action} ${r.entity}`).sort()).toEqual(
      [
        'list account',
        'list assignment',
        'list allergy_intolerance',
        'list medical_file',
        'list medical_record',
        'list prescription',
      ].sort(),
    );
    await get(doctor, `/fhir/R4/Encounter/${firstRecord}`);
    const [read] = (await rows()).slice(before + afterEverything.length);
    expect(read).toMatchObject({ action: 'read', entity: 'medical_record', entityId: firstRecord });
  });

  it('audits the profile reads too: Patient by id and by search, the care team, a Practitioner card, GET /doctor/me', async () => {
    const byDoctor = () => t.db.db.select().from(auditLog).where(eq(auditLog.actorId, doctor.id)).orderBy(auditLog.id);
    let before = (await byDoctor()).length;
    const next = async () => {
      const all = await byDoctor();
      const fresh = all.slice(before);
      before = all.length;
      return fresh.map((r) => ({ action: r.action, entity: r.entity, entityId: r.entityId, patientId: r.patientId }));
    };
    expect((await get(doctor, `/fhir/R4/Patient/${patient.id}`)).statusCode).toBe(200);
    expect(await next()).toEqual([{ action: 'read', entity: 'account', entityId: patient.id, patientId: patient.id }]);
    expect((await get(doctor, `/fhir/R4/Patient?patient=${patient.id}`)).statusCode).toBe(200);
    expect(await next()).toEqual([{ action: 'list', entity: 'account', entityId: null, patientId: patient.id }]);
    expect((await get(doctor, `/fhir/R4/Practitioner?patient=${patient.id}`)).statusCode).toBe(200);
    expect(await next()).toEqual([{ action: 'list', entity: 'assignment', entityId: null, patientId: patient.id }]);
    expect((await get(doctor, `/fhir/R4/Practitioner/${doctor.id}`)).statusCode).toBe(200);
    expect(await next()).toEqual([{ action: 'read', entity: 'account', entityId: doctor.id, patientId: null }]);
    const me = await t.app.inject({ method: 'GET', url: '/doctor/me', headers: bearer(doctor.token) });
    expect(me.statusCode).toBe(200);
    const listed = (me.json().doctor.assignedPatients as { patient: string }[]).map((p) => p.patient);
    expect(listed).toContain(patient.id);
    // a list row per patient the profile names
    const rows = await next();
    expect(rows.every((r) => r.action === 'list' && r.entity === 'account')).toBe(true);
    expect(rows.map((r) => r.patientId).sort()).toEqual(listed.sort());
  });

  it('serves a valid CapabilityStatement without a token', async () => {
    const res = await get(null, '/fhir/R4/metadata');
    expect(res.statusCode).toBe(200);
    const cs = res.json();
    expect(cs.resourceType).toBe('CapabilityStatement');
    expect(problemsOf(cs)).toEqual([]);
    expect(cs.rest[0].resource.map((r: { type: string }) => r.type)).toContain('Observation');
  });
});
