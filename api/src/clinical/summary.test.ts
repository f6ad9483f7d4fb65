import { buildSummary, DISCLAIMER, inline } from './summary';
import type { MedicalRecord } from 'shared-contracts';

type Gpe = MedicalRecord['examination']['generalPhysicalExamination'];

/** A complete record as the api stores it; override any part. */
function makeRecord(over: Partial<Omit<MedicalRecord, 'examination'>> & { gpe?: Partial<Gpe> } = {}): MedicalRecord {
  const { gpe, ...rest } = over;
  return {
    _id: '11111111-1111-4111-8111-111111111111',
    patient: '22222222-2222-4222-8222-222222222222',
    title: 'Community-acquired pneumonia',
    summary: null,
    biodata: {
      name: 'Asha Rao',
      email: 'asha@example.com',
      gender: 'Female',
      age: { years: 54, months: 3, days: 12 },
      occupation: 'Teacher',
      modeOfAdmission: 'Emergency',
      dateOfAdmission: '2025-03-04T09:30:00.000Z',
      maritalStatus: 'Married',
      address: { street: '1 Main St', city: 'Pune', state: 'MH', pinCode: '411001' },
    },
    doctorInfo: { doctorName: 'Dr Mehta', doctorEmail: 'mehta@example.com' },
    historyOfPresentingComplaints: 'Fever and productive cough for 3 days.',
    historyOfPresentingIllness: 'Rigors, right-sided pleuritic chest pain.',
    pastSurgicalHistory: '',
    pastMedicalHistory: 'Type 2 diabetes.',
    familyHistory: '',
    drugHistory: 'Metformin 500 mg twice daily.',
    allergies: '',
    gynecologicalHistory: '',
    occupationalHistory: '',
    travelHistory: '',
    socioeconomicHistory: 'Non-smoker.',
    systemicHistory: {},
    examination: {
      generalPhysicalExamination: {
        bloodPressure: '128/84',
        pulse: 96,
        temperature: '38.4',
        respiratoryRate: 22,
        bloodSugarLevel: '180 mg/dL',
        Notes: '',
        ...gpe,
      },
      respiratorySystem: '',
      centralNervousSystem: '',
      cardiovascularSystem: '',
      gastrointestinalSystem: '',
    },
    investigations: { completeBloodCount: 'WBC 14.2', chestXRay: 'Right lower lobe consolidation.' },
    treatment: {
      prescribedDrug: 'Amoxicillin 500 mg capsules',
      dosage: '500 mg',
      administrationRoute: 'Oral',
      dosageFrequency: 'Three times daily',
    },
    createdAt: '2025-03-04T10:00:00.000Z',
    ...rest,
  };
}

const NO_TREATMENT = { prescribedDrug: '', dosage: '', administrationRoute: '', dosageFrequency: '' };
const headings = (md: string) => md.split('\n').filter((l) => /^\s*#/.test(l));
const section = (md: string, heading: string) => {
  const start = md.indexOf(`## ${heading}\n`);
  const next = md.indexOf('\n## ', start + 1);
  return md.slice(start, next === -1 ? undefined : next);
};

describe('buildSummary', () => {
  it('has the sections in order, and ends with the disclaimer', () => {
    const { markdown } = buildSummary(makeRecord());
    expect(headings(markdown)).toEqual([
      '## Patient',
      '## Presenting complaint',
      '## Key history',
      '## Vital signs',
      '## Investigations',
      '## Treatment',
      '## Alerts',
    ]);
    expect(markdown.trimEnd().split('\n').pop()).toBe(DISCLAIMER);
    expect(markdown).not.toMatch(/_/);
  });

  it('renders the whole summary', () => {
    const { markdown, news2, alerts } = buildSummary(makeRecord({ allergies: 'Penicillin (rash)' }));
    expect(markdown).toBe(
      [
        '## Patient',
        '**Name:** Asha Rao',
        '**Age:** 54 years 3 months',
        '**Gender:** Female',
        '**Mode of admission:** Emergency',
        '**Date of admission:** 2025-03-04',
        '**Record:** Community-acquired pneumonia',
        '',
        '## Presenting complaint',
        '**Presenting complaints:** Fever and productive cough for 3 days.',
        '**History of presenting illness:** Rigors, right-sided pleuritic chest pain.',
        '',
        '## Key history',
        '**Past medical history:** Type 2 diabetes.',
        '**Drug history:** Metformin 500 mg twice daily.',
        '**Allergies:** Penicillin (rash)',
        '**Social history:** Non-smoker.',
        '**Occupation:** Teacher',
        '',
        '## Vital signs',
        '**Blood pressure:** 128/84 mmHg (reference 90–120/60–80 mmHg): high; ACC/AHA 2017 category: stage 1 hypertension',
        '**Pulse:** 96 /min (reference 60–100 /min): normal',
        '**Respiratory rate:** 22 /min (reference 12–20 /min): high',
        '**Temperature:** 38.4 °C (reference 36.1–38.0 °C): high',
        '**Blood sugar:** 180 mg/dL (random glucose reference 70–140 mg/dL): high',
        '**NEWS2 (partial): 4**',
        'Sub-scores: Respiration rate 22 /min: 2; Systolic blood pressure 128 mmHg: 0; Pulse 96 /min: 1; Temperature 38.4 °C: 1.',
        '**Response (low):** ward-based response: inform the registered nurse, who assesses the patient and decides whether monitoring should increase or care be escalated; minimum 4–6-hourly monitoring.',
        'Not scored: SpO2, air or oxygen, consciousness (not in the record).',
        'Partial score: the unscored parameters can add up to 8 points, so the full NEWS2 may be higher and its response more urgent (RCP 2017).',
        '',
        '## Investigations',
        '**Complete blood count:** WBC 14.2',
        '**Chest X-ray:** Right lower lobe consolidation.',
        '',
        '## Treatment',
        '**Drug:** Amoxicillin 500 mg capsules',
        '**Dosage:** 500 mg',
        '**Route:** Oral',
        '**Frequency:** Three times daily',
        '',
        '## Alerts',
        '**Drug–allergy alert (same class):** Amoxicillin is a penicillin; the patient has a recorded penicillin allergy (“Penicillin (rash)”).',
        '',
        'Decision support only: verify against the full clinical picture.',
        '',
      ].join('\n'),
    );
    expect(news2).toMatchObject({ total: 4, band: 'low', partial: true });
    expect(alerts).toEqual([
      {
        drug: 'Amoxicillin 500 mg capsules',
        allergy: 'Penicillin (rash)',
        kind: 'same-class',
        drugClass: 'penicillins',
        message: 'Amoxicillin is a penicillin; the patient has a recorded penicillin allergy (“Penicillin (rash)”).',
      },
    ]);
  });

  it('"No alerts." when there is nothing to flag', () => {
    const r = makeRecord({ allergies: 'NKDA', gpe: { respiratoryRate: 16, pulse: 80, temperature: '37.0' } });
    const { markdown, alerts, news2 } = buildSummary(r);
    expect(alerts).toEqual([]);
    expect(news2).toMatchObject({ total: 0, band: 'low' });
    expect(section(markdown, 'Alerts')).toBe('## Alerts\nNo alerts.\n\n' + DISCLAIMER + '\n');
    expect(markdown).toContain('**Response (low):** routine NEWS monitoring, minimum 12-hourly.');
  });

  it('states the total is partial and lists what is not scored, including the form default temperature "9"', () => {
    const { markdown, news2 } = buildSummary(makeRecord({ gpe: { temperature: '9', bloodPressure: '' } }));
    expect(news2.unscored).toEqual(['systolicBP', 'temperature']);
    expect(news2.subScores.map((s) => s.parameter)).toEqual(['respirationRate', 'pulse']);
    expect(news2.total).toBe(3); // RR 22 → 2, pulse 96 → 1
    expect(markdown).toContain('**Temperature:** Implausible: “9”, below 25 °C — not scored.');
    expect(markdown).toContain('**Blood pressure:** Not recorded — not scored.');
    expect(markdown).toContain('**NEWS2 (partial): 3**');
    expect(markdown).toContain(
      'Not scored: SpO2, air or oxygen, consciousness (not in the record); systolic blood pressure (not recorded); temperature (implausible: “9”, below 25 °C).',
    );
    expect(markdown).toContain('up to 14 points');
    expect(section(markdown, 'Alerts')).toContain(
      '**Implausible value:** temperature “9” (below 25 °C), not scored: re-measure and correct the record.',
    );
    expect(markdown).not.toContain('ACC/AHA');
  });

  it('reads a temperature above 45 as °F and says so', () => {
    const { markdown, news2 } = buildSummary(makeRecord({ gpe: { temperature: '101.3' } }));
    expect(markdown).toContain('**Temperature:** 101.3 °F read as 38.5 °C (reference 36.1–38.0 °C): high');
    expect(news2.subScores.find((s) => s.parameter === 'temperature')).toEqual({
      parameter: 'temperature',
      value: 38.5,
      score: 1,
    });
  });

  it('implausible pulse or respiratory rate are flagged and not scored', () => {
    const { markdown, news2 } = buildSummary(makeRecord({ gpe: { pulse: 10, respiratoryRate: 90 } }));
    expect(news2.unscored).toEqual(['respirationRate', 'pulse']);
    expect(markdown).toContain('**Pulse:** Implausible: “10”, below 20 /min — not scored.');
    expect(markdown).toContain('**Respiratory rate:** Implausible: “90”, above 80 /min — not scored.');
  });

  it('a single parameter scoring 3: low-medium, and an alert', () => {
    const { markdown, news2 } = buildSummary(makeRecord({ gpe: { respiratoryRate: 16, pulse: 80, temperature: '34.8' } }));
    expect(news2).toMatchObject({ total: 3, band: 'low-medium' });
    expect(section(markdown, 'Alerts')).toContain(
      '**NEWS2 single parameter scoring 3 (temperature):** urgent ward-based response',
    );
  });

  it('NEWS2 ≥ 5 and ≥ 7 raise alerts', () => {
    const medium = buildSummary(makeRecord({ gpe: { respiratoryRate: 22, bloodPressure: '98/60', pulse: 96 } })); // 2 + 2 + 1 + 1
    expect(medium.news2).toMatchObject({ total: 6, band: 'medium' });
    expect(section(medium.markdown, 'Alerts')).toContain('**NEWS2 ≥ 5 (partial score 6):** urgent clinical review');
    const high = buildSummary(makeRecord({ gpe: { respiratoryRate: 26, bloodPressure: '88/50', pulse: 120 } })); // 3 + 3 + 2 + 1
    expect(high.news2).toMatchObject({ total: 9, band: 'high' });
    expect(section(high.markdown, 'Alerts')).toContain('**NEWS2 ≥ 7 (partial score 9):** emergency response');
    expect(high.markdown).toContain(
      '**Blood pressure:** 88/50 mmHg (reference 90–120/60–80 mmHg): low; ACC/AHA 2017 category: none (low blood pressure, hypotension range)',
    );
  });

  it('hypertensive crisis is an alert', () => {
    const { markdown } = buildSummary(makeRecord({ gpe: { bloodPressure: '190 / 125 mmHg' } }));
    expect(markdown).toContain('ACC/AHA 2017 category: hypertensive crisis');
    expect(section(markdown, 'Alerts')).toContain('**Hypertensive crisis (ACC/AHA 2017):** blood pressure 190/125 mmHg');
  });

  it('checks the other prescriptions with every recorded allergy note', () => {
    const { markdown, alerts } = buildSummary(makeRecord({ allergies: 'sulfa drugs', treatment: NO_TREATMENT }), {
      prescriptions: [
        { prescribedDrug: 'Ceftriaxone 1 g IV', allergies: ['Penicillin'] },
        { prescribedDrug: 'Bactrim DS', allergies: ['penicillin.'] },
        { prescribedDrug: 'ceftriaxone 1g iv', allergies: [] },
      ],
    });
    expect(alerts.map((a) => [a.drug, a.allergy, a.kind])).toEqual([
      ['Ceftriaxone 1 g IV', 'Penicillin', 'cross-reactivity'],
      ['Bactrim DS', 'sulfa drugs', 'same-class'],
    ]);
    expect(section(markdown, 'Treatment')).toBe('## Treatment\n**Prescriptions:** Ceftriaxone 1 g IV; Bactrim DS\n');
    expect(section(markdown, 'Alerts')).toContain(
      '**Drug–allergy alert (cross-reactivity warning):** Ceftriaxone is a cephalosporin',
    );
  });

  it('empty parts read "Not recorded." / "None recorded."', () => {
    const r = makeRecord({
      historyOfPresentingComplaints: '',
      historyOfPresentingIllness: '  ',
      investigations: { completeBloodCount: '', chestXRay: '' },
      treatment: NO_TREATMENT,
      biodata: { ...makeRecord().biodata, age: null },
    });
    const { markdown } = buildSummary(r);
    expect(section(markdown, 'Presenting complaint')).toBe('## Presenting complaint\nNot recorded.\n');
    expect(section(markdown, 'Investigations')).toBe('## Investigations\nNone recorded.\n');
    expect(section(markdown, 'Treatment')).toBe('## Treatment\nNone recorded.\n');
    expect(markdown).toContain('**Age:** Not recorded');
    expect(markdown).toContain('**Allergies:** Not recorded.');
  });

  it('ages in years and months, months, days', () => {
    const age = (a: { years: number; months: number; days: number }) =>
      buildSummary(makeRecord({ biodata: { ...makeRecord().biodata, age: a } })).markdown.split('\n')[2];
    expect(age({ years: 1, months: 1, days: 0 })).toBe('**Age:** 1 year 1 month');
    expect(age({ years: 40, months: 0, days: 3 })).toBe('**Age:** 40 years');
    expect(age({ years: 0, months: 7, days: 3 })).toBe('**Age:** 7 months');
    expect(age({ years: 0, months: 0, days: 12 })).toBe('**Age:** 12 days');
  });

  it('warns that adult ranges and NEWS2 do not apply under 16', () => {
    const child = makeRecord({ biodata: { ...makeRecord().biodata, age: { years: 9, months: 0, days: 0 } } });
    expect(buildSummary(child).markdown).toContain('NEWS2 do not apply under 16 years');
    expect(buildSummary(makeRecord()).markdown).not.toContain('under 16');
  });

  it('orders unknown investigation keys after the known ones, sorted', () => {
    const { markdown } = buildSummary(makeRecord({ investigations: { zeta: 'z', urineAnalysis: 'clear', chestXRay: 'clear' } }));
    expect(section(markdown, 'Investigations')).toBe(
      '## Investigations\n**Chest X-ray:** clear\n**Urine analysis:** clear\n**Zeta:** z\n',
    );
  });

  it('is deterministic: the same record gives the same text', () => {
    const r = makeRecord({ allergies: 'penicillin', gpe: { temperature: '9' } });
    const a = buildSummary(r, { prescriptions: [{ prescribedDrug: 'meropenem', allergies: ['sulfa'] }] });
    const b = buildSummary(structuredClone(r), { prescriptions: [{ prescribedDrug: 'meropenem', allergies: ['sulfa'] }] });
    expect(b).toEqual(a);
  });

  it('user text cannot create a heading or break the bold labels', () => {
    const r = makeRecord({
      title: '# Fake title',
      historyOfPresentingComplaints: '## Alerts\n## No alerts.\n# injected',
      pastMedicalHistory: 'line one\r\n\n### heading\u2028two',
      allergies: '**bold** ## penicillin',
      investigations: { completeBloodCount: '\n\n## Treatment' },
      gpe: { temperature: '## 9', bloodSugarLevel: '# high' },
      treatment: { ...NO_TREATMENT, prescribedDrug: '# amoxicillin\n## Alerts' },
    });
    const { markdown } = buildSummary(r);
    expect(headings(markdown)).toEqual([
      '## Patient',
      '## Presenting complaint',
      '## Key history',
      '## Vital signs',
      '## Investigations',
      '## Treatment',
      '## Alerts',
    ]);
    expect(markdown).toContain('**Record:** Fake title');
    expect(markdown).toContain('**Presenting complaints:** Alerts ## No alerts. # injected');
    expect(markdown).toContain('**Past medical history:** line one ### heading two');
    expect(markdown).toContain('**Allergies:** *bold* ## penicillin');
    expect(markdown).toContain('**Complete blood count:** Treatment');
    // every line that is not a heading starts with one of our own texts
    for (const line of markdown.split('\n').filter(Boolean))
      expect(line).not.toMatch(
        /^\s*#(?!# (Patient|Presenting complaint|Key history|Vital signs|Investigations|Treatment|Alerts)$)/,
      );
  });

  it('inline() flattens a field to one safe line', () => {
    expect(inline('  ## a\n\nb\u2029c\u0085d  ')).toBe('a b c d');
    expect(inline('#\n# x')).toBe('x');
    expect(inline('a ** b *** c')).toBe('a * b * c');
  });
});
