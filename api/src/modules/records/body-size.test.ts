import type { Bundle, Observation } from '@medplum/fhirtypes';
import { assignedPair, recordBody, type Account } from '../../test/clinical';
import { loadR4Definitions, problemsOf } from '../../test/fhir-validation';
import { appPerFile, BACKENDS, bearer, type TestApp } from '../../test/helpers';
import { pdfText } from '../../test/pdf-text';

/*
 * Weight and height are taken at the examination like any vital sign (shared-contracts
 * VITAL_SIGNS), and a record with both gives a BMI: in the summary, and as a FHIR Observation
 * (profile bmi) derived from the two it names. Neither makes a set of observations (hazard H47:
 * modules/records/worklist.test.ts).
 */
beforeAll(loadR4Definitions);

describe.each(BACKENDS)('weight, height and BMI on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  let doctor: Account, patient: Account;
  let measured: string, weighedOnly: string;

  const get = (who: Account, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
  const post = (who: Account, url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(who.token), ...(payload ? { payload } : {}) });
  const write = async (gpe: Record<string, unknown>) => {
    const res = await post(doctor, `/medicalhistory/${patient.id}`, recordBody({ gpe }));
    expect(res.statusCode).toBe(201);
    return res.json().record._id as string;
  };
  const observations = async (query: string) => {
    const res = await get(patient, `/fhir/R4/Observation?patient=${patient.id}&${query}`);
    expect(res.statusCode).toBe(200);
    return ((res.json() as Bundle<Observation>).entry ?? []).map((e) => e.resource!);
  };

  beforeAll(async () => {
    ({ t } = fixture);
    ({ doctor, patient } = await assignedPair(t));
    measured = await write({ pulse: 80, weight: '70.2', height: 175 });
    weighedOnly = await write({ weight: 69 });
  });

  it('takes them within their limits, as numbers, and refuses what no person measures', async () => {
    const stored = (await get(patient, `/medicalHistory/${measured}`)).json();
    expect(stored.examination.generalPhysicalExamination).toMatchObject({ weight: 70.2, height: 175 });
    for (const [gpe, error] of [
      [{ weight: 700 }, /Weight must be at most 650/],
      [{ weight: 0 }, /Weight must be at least 0.2/],
      [{ height: 300 }, /Height must be at most 280/],
    ] as const) {
      const refused = await post(doctor, `/medicalhistory/${patient.id}`, recordBody({ gpe }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatch(error);
    }
  });

  it('the summary says the weight, the height and the BMI from them; with a weight alone, no BMI', async () => {
    const vitalsOf = async (id: string) => {
      const res = await post(doctor, `/medicalhistory/summary/${id}`);
      expect(res.statusCode).toBe(200);
      return res.json().summary.split('## Vital signs')[1].split('## ')[0] as string;
    };
    const both = await vitalsOf(measured);
    expect(both).toContain('**Weight:** 70.2 kg');
    expect(both).toContain('**Height:** 175 cm');
    // 70.2 / 1.75² = 22.92
    expect(both).toContain("**BMI:** 22.9 kg/m² (from this record's weight and height)");
    // each within its limits, together impossible: said, never given as a BMI
    const mistyped = await vitalsOf(await write({ weight: 70, height: 25 }));
    expect(mistyped).toContain(
      "**BMI:** not given — this record's weight and height make 1120 kg/m², which no person has: check both.",
    );
    const alone = await vitalsOf(weighedOnly);
    expect(alone).toContain('**Weight:** 69 kg');
    expect(alone).toContain('**Height:** Not measured.');
    expect(alone).not.toContain('BMI');
  });

  it('FHIR: valid weight, height and BMI Observations, the BMI derived from the two, each found by its code', async () => {
    const weights = await observations('code=http://loinc.org|29463-7&date=2026-03-01');
    expect(weights.map((o) => o.valueQuantity?.value).sort()).toEqual([69, 70, 70.2]); // three records weighed her
    const weight = weights.find((o) => o.id === `${measured}-29463-7`)!;
    const height = (await observations('code=http://loinc.org|8302-2')).find((o) => o.id === `${measured}-8302-2`)!;
    const bmis = await observations('code=http://loinc.org|39156-5');
    expect(weight).toMatchObject({
      id: `${measured}-29463-7`,
      meta: { profile: ['http://hl7.org/fhir/StructureDefinition/bodyweight'] },
      valueQuantity: { value: 70.2, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
    });
    expect(height).toMatchObject({
      id: `${measured}-8302-2`,
      meta: { profile: ['http://hl7.org/fhir/StructureDefinition/bodyheight'] },
      valueQuantity: { value: 175, unit: 'cm', code: 'cm' },
    });
    expect(bmis).toHaveLength(1); // none for a weight alone, none for an impossible pair
    expect(bmis[0]).toMatchObject({
      id: `${measured}-39156-5`,
      meta: { profile: ['http://hl7.org/fhir/StructureDefinition/bmi'] },
      category: [{ coding: [{ code: 'vital-signs' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '39156-5' }] },
      valueQuantity: { value: 22.9, unit: 'kg/m2', system: 'http://unitsofmeasure.org', code: 'kg/m2' },
      derivedFrom: [{ reference: `Observation/${measured}-29463-7` }, { reference: `Observation/${measured}-8302-2` }],
    });
    for (const o of [weight, height, bmis[0]]) expect(problemsOf(o)).toEqual([]);
    const read = await get(patient, `/fhir/R4/Observation/${measured}-39156-5`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(bmis[0]);
  });

  it('the health-record PDF lists them under their labels', async () => {
    const res = await get(patient, '/patient/health-record.pdf');
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Weight: 70.2 kg');
    expect(text).toContain('Height: 175 cm');
  });
});
