import type { Bundle, RiskAssessment } from '@medplum/fhirtypes';
import { qualitativeRisk } from '../../fhir';
import { pageCount, pdfText } from '../../test/pdf-text';
import { renderHealthRecordPdf } from './pdf';
import { assessmentLines, healthRecordLines, narrativeText, NOT_MEASURED, summaryLines, type RecordLine } from './record-lines';

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';

/** A small $everything Bundle as the FHIR API answers it: one patient, one record with some vitals. */
const bundle: Bundle = {
  resourceType: 'Bundle',
  type: 'searchset',
  entry: [
    {
      resource: {
        resourceType: 'Patient',
        id: 'p1',
        name: [{ use: 'official', text: 'Ada Lovelace' }],
        gender: 'female',
        birthDate: '1990-12-10',
        telecom: [{ system: 'email', value: 'ada@example.com' }],
      },
    },
    { resource: { resourceType: 'Practitioner', id: 'd1', name: [{ text: 'Dr Grace Hopper' }] } },
    {
      resource: {
        resourceType: 'AllergyIntolerance',
        id: 'a1',
        patient: { reference: 'Patient/p1' },
        code: { text: 'Penicillin' },
        clinicalStatus: {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }],
        },
        criticality: 'high',
      },
    },
    {
      resource: {
        resourceType: 'Encounter',
        id: 'r1',
        status: 'finished',
        class: { code: 'AMB' },
        type: [{ text: 'Chest pain' }],
        subject: { reference: 'Patient/p1' },
        participant: [{ individual: { reference: 'Practitioner/d1' } }],
        period: { start: '2026-11-20T09:30:00.000Z' },
        hospitalization: { admitSource: { text: 'Emergency' } },
      },
    },
    {
      resource: {
        resourceType: 'Observation',
        id: 'r1-8867-4',
        status: 'final',
        code: { coding: [{ system: LOINC, code: '8867-4' }], text: 'Pulse' },
        subject: { reference: 'Patient/p1' },
        encounter: { reference: 'Encounter/r1' },
        valueQuantity: { value: 72, unit: 'beats/minute', system: UCUM, code: '/min' },
      },
    },
    {
      resource: {
        resourceType: 'Observation',
        id: 'r1-85354-9',
        status: 'final',
        code: { coding: [{ system: LOINC, code: '85354-9' }], text: 'Blood pressure' },
        subject: { reference: 'Patient/p1' },
        encounter: { reference: 'Encounter/r1' },
        component: [
          { code: { coding: [{ system: LOINC, code: '8480-6' }] }, valueQuantity: { value: 128, unit: 'mmHg', code: 'mm[Hg]' } },
          { code: { coding: [{ system: LOINC, code: '8462-4' }] }, valueQuantity: { value: 84, unit: 'mmHg', code: 'mm[Hg]' } },
        ],
      },
    },
    {
      resource: {
        resourceType: 'Observation',
        id: 'r1-news2',
        status: 'final',
        code: { text: 'NEWS2 score' },
        subject: { reference: 'Patient/p1' },
        encounter: { reference: 'Encounter/r1' },
        valueInteger: 3,
        interpretation: [{ text: 'Incomplete: the full score is at least 3; not measured: Temperature' }],
      },
    },
    {
      resource: {
        resourceType: 'Composition',
        id: 'r1-summary',
        status: 'final',
        type: { text: 'Summary' },
        date: '2026-11-20T10:00:00.000Z',
        author: [{ reference: 'Practitioner/d1' }],
        title: 'Summary',
        encounter: { reference: 'Encounter/r1' },
        section: [
          {
            text: {
              status: 'generated',
              div: '<div xmlns="http://www.w3.org/1999/xhtml"><p>## Findings</p><p>**Chest pain** &amp; fever</p></div>',
            },
          },
        ],
      },
    },
    {
      resource: {
        resourceType: 'MedicationRequest',
        id: 'm1',
        status: 'active',
        intent: 'order',
        subject: { reference: 'Patient/p1' },
        requester: { reference: 'Practitioner/d1' },
        authoredOn: '2026-11-20T10:05:00.000Z',
        medicationCodeableConcept: { text: 'Amoxicillin 500 mg' },
        dosageInstruction: [{ text: 'three times a day for 5 days' }],
      },
    },
    {
      resource: {
        resourceType: 'DocumentReference',
        id: 'f1',
        status: 'current',
        date: '2026-11-21T08:00:00.000Z',
        content: [
          { attachment: { contentType: 'application/pdf', title: 'blood-test.pdf', url: 'https://signed.example/secret' } },
        ],
      },
    },
  ],
};

const opts = { generatedAt: new Date('2026-11-23T23:30:00.000Z'), timeZone: 'Australia/Sydney' };
const texts = (lines: RecordLine[]) => lines.map((l) => (l.kind === 'fact' ? `${l.label}: ${l.text}` : l.text));

describe('healthRecordLines', () => {
  const lines = texts(healthRecordLines(bundle, opts));

  it('names the patient and lists allergies with their status', () => {
    expect(lines).toContain('Name: Ada Lovelace');
    expect(lines).toContain('Date of birth: 10 Dec 1990');
    expect(lines).toContain('Penicillin (status: active; criticality: high)');
  });

  it('shows each record with its vital signs as recorded, and "not measured" where absent', () => {
    expect(lines).toContain('Chest pain — 20 Nov 2026, 20:30'); // 09:30 UTC in Sydney (UTC+11)
    expect(lines).toContain('Doctor: Dr Grace Hopper');
    expect(lines).toContain('Mode of admission: Emergency');
    expect(lines).toContain('Pulse: 72 beats/minute');
    expect(lines).toContain('Blood pressure: 128/84 mmHg');
    expect(lines).toContain(`Respiratory rate: ${NOT_MEASURED}`);
    expect(lines).toContain(`Temperature: ${NOT_MEASURED}`);
    expect(lines).toContain('NEWS2: 3 — Incomplete: the full score is at least 3; not measured: Temperature');
  });

  it('lists the vital signs in the declared order, each under its one label', () => {
    const at = lines.indexOf('Vital signs');
    expect(lines.slice(at + 1, at + 7).map((l) => l.slice(0, l.indexOf(':')))).toEqual([
      'Blood pressure',
      'Pulse',
      'Temperature',
      'Respiratory rate',
      'SpO2',
      'Blood sugar level',
    ]);
  });

  it('gives the summary as plain text, no markup', () => {
    const at = lines.indexOf('Summary');
    expect(lines.slice(at + 1, at + 3)).toEqual(['Findings', 'Chest pain & fever']);
    expect(lines.join('\n')).not.toMatch(/<|\*\*/);
  });

  it('lists prescriptions, and files by name and date without their links', () => {
    expect(lines).toContain('Amoxicillin 500 mg — 20 Nov 2026, 21:05');
    expect(lines).toContain('three times a day for 5 days');
    expect(lines).toContain('blood-test.pdf — 21 Nov 2026, 19:00');
    expect(lines.join('\n')).not.toContain('signed.example');
  });

  it("ends with when it was generated, in the clinic's time zone", () => {
    expect(lines.at(-1)).toBe('Generated 24 Nov 2026, 10:30');
  });

  it('says so when the record holds nothing yet', () => {
    const empty = texts(healthRecordLines({ resourceType: 'Bundle', type: 'searchset', entry: [] }, opts));
    expect(empty).toEqual(
      expect.arrayContaining(['No allergy recorded', 'No medical record found', 'No prescription found', 'No file uploaded']),
    );
  });
});

describe('assessmentLines', () => {
  const base: RiskAssessment = { resourceType: 'RiskAssessment', status: 'final', subject: { reference: 'Patient/p1' } };

  it('gives the acuity in words, the findings that alert, and each caveat; never a finding without alert as a reason', () => {
    const lines = assessmentLines({
      ...base,
      prediction: [
        { outcome: { text: 'Critical: pulse 25 /min' }, qualitativeRisk: qualitativeRisk('emergency') },
        { outcome: { text: 'Drug–allergy alert (warn)' }, qualitativeRisk: qualitativeRisk('review') },
        { outcome: { text: 'NEWS2 0 low' }, qualitativeRisk: qualitativeRisk('none') },
      ],
      note: [{ text: 'Age unknown — adult NEWS2 used.' }],
    });
    expect(lines).toEqual([
      { kind: 'text', text: 'Assessment' },
      { kind: 'fact', label: 'Acuity', text: 'Emergency' },
      { kind: 'text', text: 'Critical: pulse 25 /min' },
      { kind: 'text', text: 'Drug–allergy alert (warn)' },
      { kind: 'note', text: 'Caution: Age unknown — adult NEWS2 used.' },
    ]);
  });

  it('says "No alert" for an assessment without findings', () => {
    expect(assessmentLines(base)).toEqual([
      { kind: 'text', text: 'Assessment' },
      { kind: 'fact', label: 'Acuity', text: 'No alert' },
    ]);
  });
});

describe('summaryLines', () => {
  it('turns "## " headings into sub-headings and drops **bold** markers', () => {
    expect(summaryLines('## Risk\n**NEWS2 5** — urgent review\n\nplain')).toEqual([
      { kind: 'subheading', text: 'Risk' },
      { kind: 'text', text: 'NEWS2 5 — urgent review' },
      { kind: 'text', text: 'plain' },
    ]);
  });

  it('keeps markup in the data as text (it is never interpreted)', () => {
    expect(narrativeText('<div><p>&lt;script&gt;x&lt;/script&gt;</p></div>').trim()).toBe('<script>x</script>');
  });
});

describe('renderHealthRecordPdf', () => {
  it('writes a whole PDF: header, trailer, and more pages for more content', async () => {
    const lines = healthRecordLines(bundle, opts);
    const one = await renderHealthRecordPdf(lines, { compress: false, createdAt: opts.generatedAt });
    expect(one.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(one.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    expect(pageCount(one)).toBe(1);
    const many = await renderHealthRecordPdf([...lines, ...lines, ...lines], { compress: false, createdAt: opts.generatedAt });
    expect(pageCount(many)).toBeGreaterThan(1);
  });

  it('compresses its pages by default, and they still read back as the lines', async () => {
    const pdf = await renderHealthRecordPdf(healthRecordLines(bundle, opts), { createdAt: opts.generatedAt });
    expect(pdf.toString('latin1')).toContain('/FlateDecode');
    const text = pdfText(pdf);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('not measured');
    expect(text).toContain('Generated 24 Nov 2026, 10:30');
  });
});
