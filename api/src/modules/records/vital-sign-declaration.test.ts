import type { Bundle, Observation } from '@medplum/fhirtypes';
import { assignedPair, recordBody, type Account } from '../../test/clinical';
import { loadR4Definitions, problemsOf } from '../../test/fhir-validation';
import { appPerFile, BACKENDS, bearer, type TestApp } from '../../test/helpers';
import { pdfText } from '../../test/pdf-text';

/*
 * A vital sign is declared in one place: shared-contracts VITAL_SIGNS. Here the list gets one more
 * entry — head circumference, a FHIR vital sign (LOINC 9843-4, profile headcircum) — and nothing else
 * changes: the api takes it in a record, and the summary, the FHIR Observations and the PDF state
 * it under its label, in its unit. (The form and the detail view: remote-doctor's
 * vital-sign-declaration.test.tsx.)
 */
jest.mock('../../../../shared-contracts/src/vital-sign-list', () => {
  const actual = jest.requireActual('../../../../shared-contracts/src/vital-sign-list');
  return {
    ...actual,
    VITAL_SIGNS: [
      ...actual.VITAL_SIGNS,
      {
        key: 'headCircumference',
        label: 'Head circumference',
        kind: 'number',
        units: ['cm'],
        limits: [10, 80],
        plausible: [25, 65],
        loinc: [{ code: '9843-4', display: 'Head Occipital-frontal circumference' }],
        fhir: { profile: 'headcircum' },
      },
    ],
  };
});

beforeAll(loadR4Definitions);

describe.each(BACKENDS)('a vital sign added to VITAL_SIGNS alone, on %s', (backend) => {
  let t: TestApp;
  const fixture = appPerFile(backend);
  let doctor: Account, patient: Account;
  let recordId: string;

  const get = (who: Account, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
  const post = (who: Account, url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    ({ t } = fixture);
    ({ doctor, patient } = await assignedPair(t));
    const res = await post(
      doctor,
      `/medicalhistory/${patient.id}`,
      recordBody({ gpe: { pulse: 80, headCircumference: '35.5' } }),
    );
    expect(res.statusCode).toBe(201);
    recordId = res.json().record._id;
  });

  it('is taken in a record within its limits and read back as a number', async () => {
    const stored = (await get(patient, `/medicalHistory/${recordId}`)).json();
    expect(stored.examination.generalPhysicalExamination).toMatchObject({ pulse: 80, headCircumference: 35.5 });
    const refused = await post(doctor, `/medicalhistory/${patient.id}`, recordBody({ gpe: { headCircumference: 90 } }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/Head circumference must be at most 80/);
  });

  it('is a line of the summary, under its label, in its unit', async () => {
    const res = await post(doctor, `/medicalhistory/summary/${recordId}`);
    expect(res.statusCode).toBe(200);
    const vitals = res.json().summary.split('## Vital signs')[1].split('## ')[0];
    expect(vitals).toContain('**Head circumference:** 35.5 cm');
    // after the declared signs before it, in the declared order
    expect(vitals.indexOf('**Height:**')).toBeLessThan(vitals.indexOf('**Head circumference:**'));
  });

  it('is a valid FHIR Observation with its LOINC code, profile and UCUM unit, found by its code', async () => {
    const res = await get(patient, `/fhir/R4/Observation?patient=${patient.id}&code=http://loinc.org|9843-4`);
    expect(res.statusCode).toBe(200);
    const found = (res.json() as Bundle<Observation>).entry!.map((e) => e.resource!);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      id: `${recordId}-9843-4`,
      meta: { profile: ['http://hl7.org/fhir/StructureDefinition/headcircum'] },
      category: [{ coding: [{ code: 'vital-signs' }] }],
      code: {
        coding: [{ system: 'http://loinc.org', code: '9843-4', display: 'Head Occipital-frontal circumference' }],
        text: 'Head circumference',
      },
      valueQuantity: { value: 35.5, unit: 'cm', system: 'http://unitsofmeasure.org', code: 'cm' },
    });
    expect(problemsOf(found[0])).toEqual([]);
  });

  it('is a line of the health-record PDF, under its label', async () => {
    const res = await get(patient, '/patient/health-record.pdf');
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Pulse: 80 /min');
    expect(text).toContain('Head circumference: 35.5 cm');
  });
});
