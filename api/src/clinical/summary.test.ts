import { readAllergyText } from './allergy-text';
import { buildSummary, DISCLAIMER, inline } from './summary';
import { VOCABULARY_VERSION } from './medication-safety';
import type { MedicalRecord } from '@careloop/shared-contracts';
import { assessment as emptyAssessment } from '../../../test-support/fixtures';

type Gpe = MedicalRecord['examination']['generalPhysicalExamination'];

/** A complete record as the api stores it; override any part. */
function makeRecord(over: Partial<Omit<MedicalRecord, 'examination'>> & { gpe?: Partial<Gpe> } = {}): MedicalRecord {
  const { gpe, ...rest } = over;
  return {
    _id: '11111111-1111-4111-8111-111111111111',
    patient: '22222222-2222-4222-8222-222222222222',
    title: 'Community-acquired pneumonia',
    summary: null,
    summaryInfo: null,
    assessment: emptyAssessment(),
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
        // the three NEWS2 parameters a record before issue 12 never held, and no observation time
        oxygenSaturation: null,
        spo2Scale: 1,
        supplementalOxygen: null,
        consciousness: null,
        observedAt: '',
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

/** The three NEWS2 parameters makeRecord leaves out, all normal: with them the score is complete. */
const COMPLETE: Partial<Gpe> = { oxygenSaturation: 97, spo2Scale: 1, supplementalOxygen: false, consciousness: 'A' };

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
      '## Allergies',
      '## Vital signs',
      '## Investigations',
      '## Treatment',
      '## Alerts',
    ]);
    expect(markdown.trimEnd().split('\n').pop()).toBe(DISCLAIMER);
    expect(markdown).not.toMatch(/_/);
  });

  it('names each vital sign by its one declared label: its line and its NEWS2 sub-score alike', () => {
    const vitals = section(buildSummary(makeRecord({ gpe: COMPLETE })).markdown, 'Vital signs');
    const subScores = vitals.split('\n').find((l) => l.startsWith('Sub-scores: '))!;
    for (const label of ['Respiratory rate', 'SpO2', 'Air or oxygen', 'Pulse', 'Consciousness', 'Temperature']) {
      expect(vitals).toContain(`**${label}:** `);
      expect(subScores).toMatch(new RegExp(`(: |; )${label} `));
    }
    // the blood pressure's systolic is the NEWS2 parameter, named as its component
    expect(subScores).toContain('; Systolic blood pressure 128 mmHg: 0;');
    expect(vitals).not.toMatch(/Respiration rate/);
  });

  it('shows a date of admission that is no calendar day as written, never as "unknown date"', () => {
    const record = makeRecord();
    const patient = (dateOfAdmission: string) =>
      section(buildSummary({ ...record, biodata: { ...record.biodata, dateOfAdmission } }).markdown, 'Patient');
    expect(patient('2025-13-45')).toContain('**Date of admission:** 2025-13-45');
    expect(patient('2025-03-04')).toContain('**Date of admission:** 4 Mar 2025');
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
        '**Date of admission:** 4 Mar 2025',
        '**Record:** Community-acquired pneumonia',
        '',
        '## Presenting complaint',
        '**Presenting complaints:** Fever and productive cough for 3 days.',
        '**History of presenting illness:** Rigors, right-sided pleuritic chest pain.',
        '',
        '## Key history',
        '**Past medical history:** Type 2 diabetes.',
        '**Drug history:** Metformin 500 mg twice daily.',
        // the history fields in the descriptor's order
        '**Occupation:** Teacher',
        '**Social history:** Non-smoker.',
        '',
        '## Allergies',
        '**Allergies:** Penicillin (rash)',
        '',
        '## Vital signs',
        '**Blood pressure:** 128/84 mmHg (reference 90–120/60–80 mmHg): high; reading in the stage 1 hypertension range (ACC/AHA 2017; one reading; confirm on repeat)',
        '**Pulse:** 96 /min (reference 60–100 /min): normal',
        '**Temperature:** 38.4 °C (reference 36.1–38.0 °C): high',
        '**Respiratory rate:** 22 /min (reference 12–20 /min): high',
        '**SpO2:** Not measured — not scored.',
        '**Air or oxygen:** Not recorded.',
        '**Consciousness:** Not recorded.',
        '**Blood sugar level:** 180 mg/dL (random glucose reference 70–140 mg/dL): high',
        '**Weight:** Not measured.',
        '**Height:** Not measured.',
        '**NEWS2 incomplete: at least 4**',
        'Sub-scores: Respiratory rate 22 /min: 2; Systolic blood pressure 128 mmHg: 0; Pulse 96 /min: 1; Temperature 38.4 °C: 1.',
        'Missing: SpO2, Air or oxygen, Consciousness.',
        'No response tier: an incomplete score can only rise. Record the missing parameters to score NEWS2 (RCP 2017).',
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
        '**Review:** NEWS2 incomplete (at least 4); Drug–allergy alert (warning).',
        '**NEWS2 incomplete (at least 4):** missing SpO2, air or oxygen, consciousness: an incomplete score can only rise; record them (RCP NEWS2 2017, Charts 3–4)',
        `**Drug–allergy alert (warning):** Amoxicillin is a penicillin; the patient has an unconfirmed penicillin allergy with rash. (CareLoop substance vocabulary ${VOCABULARY_VERSION}; Khan DA et al., Drug allergy: a 2022 practice parameter update, J Allergy Clin Immunol 2022;150:1333–93)`,
        '',
        'Decision support only: verify against the full clinical picture.',
        '',
      ].join('\n'),
    );
    expect(news2).toMatchObject({ total: 4, complete: false });
    expect(markdown).not.toMatch(/Response \(/);
    expect(alerts).toEqual([
      {
        kind: 'allergy',
        severity: 'warning',
        substance: 'Penicillin',
        matchedText: 'Amoxicillin',
        message: 'Amoxicillin is a penicillin; the patient has an unconfirmed penicillin allergy with rash.',
        source: expect.stringContaining('Khan DA et al.'),
      },
    ]);
  });

  it('"No alerts." when there is nothing to flag', () => {
    const r = makeRecord({ allergies: 'NKDA', gpe: { ...COMPLETE, respiratoryRate: 16, pulse: 80, temperature: '37.0' } });
    const { markdown, alerts, news2 } = buildSummary(r);
    expect(alerts).toEqual([]);
    expect(news2).toMatchObject({ complete: true, total: 0, band: 'low' });
    expect(section(markdown, 'Alerts')).toBe('## Alerts\nNo alerts.\n\n' + DISCLAIMER + '\n');
    expect(markdown).toContain('**NEWS2: 0**');
    expect(markdown).toContain('**Response (low, RCP 2017 Chart 4):** routine NEWS monitoring, minimum 12-hourly.');
  });

  it('an incomplete NEWS2: "at least N", the missing parameters, no response tier; the prefill "9" is flagged', () => {
    const { markdown, news2 } = buildSummary(makeRecord({ gpe: { temperature: '9', bloodPressure: '' } }));
    expect(news2).toMatchObject({ complete: false, total: 3 }); // RR 22 → 2, pulse 96 → 1
    expect(news2.missing).toEqual(['oxygenSaturation', 'supplementalOxygen', 'systolicBP', 'consciousness', 'temperature']);
    expect(markdown).toContain('**Temperature:** Implausible: “9”, below 25 °C — not scored.');
    expect(markdown).toContain('**Blood pressure:** Not measured — not scored.');
    expect(markdown).toContain('**NEWS2 incomplete: at least 3**');
    expect(markdown).toContain('Missing: SpO2, Air or oxygen, Systolic blood pressure, Consciousness, Temperature.');
    expect(markdown).not.toMatch(/\*\*Response/);
    expect(section(markdown, 'Alerts')).toContain(
      '**Implausible temperature “9”:** below 25 °C, not scored: re-measure and correct the record (record data quality)',
    );
    expect(section(markdown, 'Alerts')).toContain('**Review:** NEWS2 incomplete (at least 3); Implausible temperature “9”.');
    expect(markdown).not.toContain('ACC/AHA');
  });

  it('unmeasured vitals read "Not measured", never a number', () => {
    const { markdown, news2 } = buildSummary(
      makeRecord({ gpe: { pulse: null, respiratoryRate: undefined, temperature: '', bloodPressure: '', bloodSugarLevel: '' } }),
    );
    for (const label of ['Pulse', 'Respiratory rate', 'Temperature', 'Blood pressure'])
      expect(markdown).toContain(`**${label}:** Not measured — not scored.`);
    expect(markdown).toContain('**Blood sugar level:** Not measured.');
    expect(news2).toMatchObject({ complete: false, total: 0, subScores: [] });
    expect(markdown).toContain('**NEWS2 incomplete: at least 0**');
  });

  it('a complete NEWS2 (all seven parameters): the score and the Chart 4 response', () => {
    const { markdown, news2 } = buildSummary(makeRecord({ gpe: { ...COMPLETE, observedAt: '2025-03-04T09:15' } }));
    expect(news2).toMatchObject({ complete: true, total: 4, band: 'low' });
    expect(markdown).toContain('**Observation time:** 2025-03-04 09:15');
    expect(markdown).toContain('**SpO2:** 97 % (scale 1)');
    expect(markdown).toContain('**Air or oxygen:** Air');
    expect(markdown).toContain('**Consciousness:** A: alert');
    expect(markdown).toContain('**NEWS2: 4**');
    expect(markdown).toContain(
      'Sub-scores: Respiratory rate 22 /min: 2; SpO2 97 % (scale 1): 0; Air or oxygen air: 0; Systolic blood pressure 128 mmHg: 0; Pulse 96 /min: 1; Consciousness A: 0; Temperature 38.4 °C: 1.',
    );
    expect(markdown).toContain('**Response (low, RCP 2017 Chart 4):** ward-based response');
    expect(markdown).not.toContain('incomplete');
  });

  it('°F only with its unit: converted and shown; a bare 101.3 is an implausible °C', () => {
    const f = buildSummary(makeRecord({ gpe: { temperature: '101.3 F' } }));
    expect(f.markdown).toContain('**Temperature:** 101.3 °F read as 38.5 °C (reference 36.1–38.0 °C): high');
    expect(f.news2.subScores.find((s) => s.parameter === 'temperature')).toEqual({
      parameter: 'temperature',
      value: '38.5 °C',
      score: 1,
    });
    const bare = buildSummary(makeRecord({ gpe: { temperature: '101.3' } }));
    expect(bare.markdown).toContain('**Temperature:** Implausible: “101.3”, above 45 °C — not scored.');
  });

  it('anything unreadable is shown verbatim as "not interpreted"', () => {
    const { markdown } = buildSummary(makeRecord({ gpe: { temperature: 'warm to touch', bloodPressure: 'BP 1200/80' } }));
    expect(markdown).toContain('**Temperature:** “warm to touch”: not interpreted — not scored.');
    expect(markdown).toContain('**Blood pressure:** “BP 1200/80”: not interpreted — not scored.');
    expect(markdown).not.toMatch(/(?<!1)200\/80/);
    expect(markdown).not.toContain('crisis');
  });

  it('glucose: unit unknown for a bare number, HbA1c not a glucose, post-prandial read as such', () => {
    const bare = buildSummary(makeRecord({ gpe: { bloodSugarLevel: '2.1' } }));
    expect(bare.markdown).toContain(
      '**Blood sugar level:** “2.1”: not interpreted (unit unknown); not flagged — record the unit (mmol/L or mg/dL).',
    );
    // a bare number is never guessed to be a hypoglycaemia: asked to be re-recorded instead
    expect(section(bare.markdown, 'Alerts')).not.toMatch(/glyc|Critical|Low glucose/i);
    expect(section(bare.markdown, 'Alerts')).toContain(
      '**Blood sugar level “2.1” not interpreted:** unit unknown: not flagged; record the value with its unit (record data quality)',
    );
    const a1c = buildSummary(makeRecord({ gpe: { bloodSugarLevel: 'HbA1c 48 mmol/mol' } }));
    expect(a1c.markdown).toContain(
      '**Blood sugar level:** “HbA1c 48 mmol/mol”: not interpreted (HbA1c, not a glucose); not flagged.',
    );
    const pp = buildSummary(makeRecord({ gpe: { bloodSugarLevel: '2hr PP 180 mg/dL' } }));
    expect(pp.markdown).toContain('**Blood sugar level:** 180 mg/dL, post-prandial (not compared with the random-glucose range)');
    expect(pp.markdown).not.toMatch(/\b2 mg\/dL/);
  });

  it.each([
    ['2.1 mmol/L', '**Critical: glucose 2.1 mmol/L:** below 3 mmol/L (level 2 hypoglycaemia): treat now', 'Emergency'],
    ['2.9 mmol/L', '**Critical: glucose 2.9 mmol/L:** below 3 mmol/L', 'Emergency'],
    ['40 mg/dL', '**Critical: glucose 40 mg/dL:** below 54 mg/dL (level 2 hypoglycaemia)', 'Emergency'],
    ['53 mg/dL', '**Critical: glucose 53 mg/dL:** below 54 mg/dL', 'Emergency'],
    ['3.0 mmol/L', '**Low glucose 3 mmol/L:** below 4 mmol/L: treat and recheck', 'Urgent'],
    ['54 mg/dL', '**Low glucose 54 mg/dL:** below 72 mg/dL', 'Urgent'],
    ['3.9 mmol/L', '**Low glucose 3.9 mmol/L:** below 4 mmol/L', 'Urgent'],
    ['25.1 mmol/L', '**Critical: glucose 25.1 mmol/L:** above 25 mmol/L, severe hyperglycaemia', 'Emergency'],
    ['460 mg/dL', '**Critical: glucose 460 mg/dL:** above 450 mg/dL', 'Emergency'],
  ])('glucose %s raises %s (%s)', (text, alert, acuity) => {
    const alerts = section(buildSummary(makeRecord({ gpe: { bloodSugarLevel: text } })).markdown, 'Alerts');
    expect(alerts).toContain(alert);
    // the glucose finding sets the acuity line (the rest of the record is a review at most)
    expect(alerts.split('\n')[1]).toMatch(new RegExp(`^\\*\\*${acuity}:\\*\\* (Critical: glucose|Low glucose)`));
  });

  it.each(['4.0 mmol/L', '72 mg/dL', '25 mmol/L', '450 mg/dL'])('glucose %s raises no glucose alert (edge)', (text) => {
    expect(section(buildSummary(makeRecord({ gpe: { bloodSugarLevel: text } })).markdown, 'Alerts')).not.toMatch(
      /glucose|glyc|sugar/i,
    );
  });

  it('critical values: SpO2 < 92 % on scale 1 (not scale 2), systolic < 90, new confusion', () => {
    const alerts = (gpe: Partial<Gpe>) => section(buildSummary(makeRecord({ gpe: { ...COMPLETE, ...gpe } })).markdown, 'Alerts');
    expect(alerts({ oxygenSaturation: 91 })).toContain('**Critical: SpO2 91 % on air:** below 92 % on scale 1: assess now');
    expect(alerts({ oxygenSaturation: 92 })).not.toContain('Critical: SpO2');
    expect(alerts({ oxygenSaturation: 89, spo2Scale: 2 })).not.toContain('Critical: SpO2');
    expect(alerts({ bloodPressure: '89/50' })).toContain(
      '**Critical: systolic 89 mmHg:** below 90 mmHg, hypotension: assess for shock now',
    );
    expect(alerts({ bloodPressure: '90/50' })).not.toContain('Critical: systolic');
    expect(alerts({ consciousness: 'C' })).toContain('**Critical: new confusion:** new-onset confusion (ACVPU “C”)');
    expect(alerts({ consciousness: 'P' })).toContain('**Critical: reduced consciousness (ACVPU “P”):** responds to pain');
    expect(alerts({ consciousness: 'A' })).not.toContain('consciousness');
  });

  it('sepsis screen: NICE NG51 high-risk criteria or qSOFA ≥ 2, with infection suggested', () => {
    const septic = buildSummary(
      makeRecord({
        gpe: {
          bloodPressure: '88/50',
          pulse: 132,
          respiratoryRate: 26,
          oxygenSaturation: 90,
          spo2Scale: 1,
          supplementalOxygen: false,
          consciousness: 'C',
          temperature: '39.2',
        },
      }),
    );
    expect(septic.news2).toMatchObject({ complete: true, total: 17, band: 'high' });
    expect(septic.markdown).toContain('**Response (high, RCP 2017 Chart 4):** emergency response');
    const alerts = section(septic.markdown, 'Alerts');
    expect(alerts).toContain(
      '**Possible sepsis:** NICE NG51 high-risk criteria: respiratory rate 26 /min (≥ 25), systolic 88 mmHg (≤ 90), heart rate 132 /min (> 130), SpO2 90 % on air (< 92), altered mental state (ACVPU C); qSOFA 3/3: respiratory rate 26 /min (≥ 22), altered mentation, systolic 88 mmHg (≤ 100) (fever): assess for sepsis now (NICE NG51; qSOFA (Seymour, JAMA 2016))',
    );
    expect(alerts).toContain('**NEWS2 17 high:** emergency response');
    expect(alerts.split('\n')[1]).toMatch(/^\*\*Emergency:\*\* Possible sepsis; /);
    // each NG51 criterion alone, with the history suggesting infection (no fever)
    const screen = (gpe: Partial<Gpe>) =>
      section(buildSummary(makeRecord({ gpe: { ...COMPLETE, temperature: '37', ...gpe } })).markdown, 'Alerts');
    expect(screen({ respiratoryRate: 25 })).toContain(
      'Possible sepsis:** NICE NG51 high-risk criteria: respiratory rate 25 /min (≥ 25)',
    );
    expect(screen({ bloodPressure: '90/60' })).toContain('systolic 90 mmHg (≤ 90)');
    expect(screen({ pulse: 131 })).toContain('heart rate 131 /min (> 130)');
    expect(screen({ pulse: 130 })).not.toContain('Possible sepsis');
    expect(screen({ oxygenSaturation: 91 })).toContain('SpO2 91 % on air (< 92)');
    expect(screen({ consciousness: 'C' })).toContain('altered mental state (ACVPU C)');
    expect(screen({ temperature: '35.9' })).toContain('temperature 35.9 °C (< 36)');
    expect(screen({ temperature: '36' })).not.toContain('Possible sepsis');
    // qSOFA: two of RR ≥ 22, systolic ≤ 100, altered mentation
    expect(screen({ respiratoryRate: 22, bloodPressure: '100/60' })).toContain(
      'Possible sepsis:** qSOFA 2/3: respiratory rate 22 /min (≥ 22), systolic 100 mmHg (≤ 100) (infection suggested: “pneumonia”)',
    );
    expect(screen({ respiratoryRate: 22, bloodPressure: '101/60' })).not.toContain('Possible sepsis');
  });

  it('no sepsis alert without a sign of infection (no fever, infection word or antibiotic anywhere)', () => {
    const r = makeRecord({
      title: 'Mechanical fall',
      historyOfPresentingComplaints: 'Fall at home.',
      historyOfPresentingIllness: 'Hip pain.',
      investigations: { chestXRay: 'No fracture.' },
      treatment: { ...NO_TREATMENT, prescribedDrug: 'Paracetamol 1 g' },
      gpe: { ...COMPLETE, temperature: '37', respiratoryRate: 26 },
    });
    const alerts = section(buildSummary(r).markdown, 'Alerts');
    expect(alerts).not.toContain('Possible sepsis');
    expect(alerts).toContain('**NEWS2 4, single parameter scoring 3 (respiratory rate):**');
    // the same record with an antibiotic prescribed is screened
    const treated = makeRecord({ ...r, treatment: { ...NO_TREATMENT, prescribedDrug: 'Amoxicillin 500 mg capsules' } });
    expect(section(buildSummary(treated).markdown, 'Alerts')).toContain('(antibiotic prescribed: Amoxicillin 500 mg capsules)');
  });

  it('blood pressure categories are worded as one reading, not a diagnosis', () => {
    const { markdown } = buildSummary(makeRecord({ gpe: { bloodPressure: '150/95' } }));
    expect(markdown).toContain('reading in the stage 2 hypertension range (ACC/AHA 2017; one reading; confirm on repeat)');
    expect(markdown).not.toMatch(/category: stage/);
  });

  it('implausible pulse or respiratory rate are flagged and not scored', () => {
    const { markdown, news2 } = buildSummary(makeRecord({ gpe: { pulse: 10, respiratoryRate: 90 } }));
    expect(news2.missing).toEqual(expect.arrayContaining(['respirationRate', 'pulse']));
    expect(markdown).toContain('**Pulse:** Implausible: “10”, below 20 /min — not scored.');
    expect(markdown).toContain('**Respiratory rate:** Implausible: “90”, above 80 /min — not scored.');
  });

  it('a single parameter scoring 3: low-medium, and an alert', () => {
    const { markdown, news2 } = buildSummary(
      makeRecord({ gpe: { ...COMPLETE, respiratoryRate: 16, pulse: 80, temperature: '34.8' } }),
    );
    expect(news2).toMatchObject({ complete: true, total: 3, band: 'low-medium' });
    expect(section(markdown, 'Alerts')).toContain(
      '**NEWS2 3, single parameter scoring 3 (temperature):** urgent ward-based response',
    );
  });

  it('NEWS2 ≥ 5 and ≥ 7 raise alerts; an incomplete score already at a threshold does too', () => {
    const medium = buildSummary(makeRecord({ gpe: { ...COMPLETE, respiratoryRate: 22, bloodPressure: '98/60', pulse: 96 } })); // 2 + 2 + 1 + 1
    expect(medium.news2).toMatchObject({ complete: true, total: 6, band: 'medium' });
    expect(section(medium.markdown, 'Alerts')).toContain('**NEWS2 6 medium:** urgent response');
    const high = buildSummary(makeRecord({ gpe: { respiratoryRate: 26, bloodPressure: '88/50', pulse: 120 } })); // 3 + 3 + 2 + 1
    expect(high.news2).toMatchObject({ complete: false, total: 9 });
    expect(section(high.markdown, 'Alerts')).toContain('**NEWS2 at least 9 (incomplete) high:** emergency response');
    expect(high.markdown).toContain(
      '**Blood pressure:** 88/50 mmHg (reference 90–120/60–80 mmHg): low; reading in the low (hypotension) range (one reading; confirm on repeat)',
    );
  });

  it('hypertensive crisis is an alert, worded as one reading', () => {
    const { markdown } = buildSummary(makeRecord({ gpe: { bloodPressure: '190 / 125 mmHg' } }));
    expect(markdown).toContain('reading in the hypertensive crisis range (ACC/AHA 2017; one reading; confirm on repeat)');
    expect(section(markdown, 'Alerts')).toContain(
      '**Blood pressure 190/125 mmHg:** reading in the hypertensive crisis range (above 180 and/or 120; one reading; confirm on repeat): assess now for acute target-organ damage (ACC/AHA 2017)',
    );
    expect(section(markdown, 'Alerts')).toContain('**Urgent:** Blood pressure 190/125 mmHg');
  });

  it('checks the other prescriptions with every recorded allergy note', () => {
    const { markdown, alerts } = buildSummary(makeRecord({ allergies: 'sulfa drugs', treatment: NO_TREATMENT }), {
      prescriptions: [
        { prescribedDrug: 'Ceftriaxone 1 g IV', allergies: ['Penicillin'] },
        { prescribedDrug: 'Bactrim DS', allergies: ['penicillin.'] },
        { prescribedDrug: 'ceftriaxone 1g iv', allergies: [] },
      ],
    });
    expect(alerts.map((a) => [a.matchedText, a.substance, a.kind, a.severity])).toEqual([
      ['Ceftriaxone', 'Penicillin', 'cross-reactivity', 'warning'],
      ['Bactrim', 'sulfa drugs', 'allergy', 'warning'],
    ]);
    expect(section(markdown, 'Treatment')).toBe('## Treatment\n**Prescriptions:** Ceftriaxone 1 g IV; Bactrim DS\n');
    expect(section(markdown, 'Alerts')).toContain('**Drug–allergy cross-reactivity (warning):** Ceftriaxone is a cephalosporin');
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
    expect(section(markdown, 'Vital signs')).toContain('\nAge unknown — adult NEWS2 used.\n');
  });

  it('ages in years and months, months, days', () => {
    const age = (a: { years: number; months: number; days: number }) =>
      buildSummary(makeRecord({ biodata: { ...makeRecord().biodata, age: a } })).markdown.split('\n')[2];
    expect(age({ years: 1, months: 1, days: 0 })).toBe('**Age:** 1 year 1 month');
    expect(age({ years: 40, months: 0, days: 3 })).toBe('**Age:** 40 years');
    expect(age({ years: 0, months: 7, days: 3 })).toBe('**Age:** 7 months');
    expect(age({ years: 0, months: 0, days: 12 })).toBe('**Age:** 12 days');
  });

  // Fail safe: context adds caution, it never removes an alert (assessment.ts).
  const withAge = (age: MedicalRecord['biodata']['age'], gpe: Partial<Gpe>) =>
    buildSummary(makeRecord({ biodata: { ...makeRecord().biodata, age }, gpe: { ...COMPLETE, ...gpe } })).markdown;
  /** NEWS2 14 without a critical value: RR 25, SpO2 92 % on oxygen, systolic 90, pulse 125, alert, 39.1 °C */
  const NEWS2_14: Partial<Gpe> = {
    respiratoryRate: 25,
    oxygenSaturation: 92,
    supplementalOxygen: true,
    bloodPressure: '90/60',
    pulse: 125,
    temperature: '39.1',
  };

  it('age unknown: the adult NEWS2 alerts are raised, with a caveat', () => {
    const md = withAge(null, NEWS2_14);
    expect(md).toContain('**NEWS2: 14**');
    expect(md).toContain('**Response (high, RCP 2017 Chart 4):** emergency response');
    expect(section(md, 'Alerts')).toContain('**NEWS2 14 high:** emergency response');
    expect(section(md, 'Alerts').split('\n')[1]).toMatch(/^\*\*Emergency:\*\* /);
    expect(section(md, 'Vital signs')).toContain('\nAge unknown — adult NEWS2 used.\n');
    // a known adult age: the same alerts, without the caveat
    const adult = withAge({ years: 54, months: 0, days: 0 }, NEWS2_14);
    expect(section(adult, 'Alerts')).toContain('**NEWS2 14 high:** emergency response');
    expect(adult).not.toContain('Age unknown');
  });

  it('age unknown: a critical pulse of 25 alerts', () => {
    const alerts = section(withAge(null, { pulse: 25 }), 'Alerts');
    expect(alerts).toContain('**Critical: pulse 25 /min:** below 30 /min, peri-arrest: call for help now (RCUK ALS 2021)');
    expect(alerts.split('\n')[1]).toBe('**Emergency:** Critical: pulse 25 /min; NEWS2 6 medium.');
  });

  it('under 16: a critical pulse of 25 alerts, no adult NEWS2 tier, and the paediatric caveat', () => {
    const md = withAge({ years: 15, months: 11, days: 30 }, { pulse: 25 });
    const alerts = section(md, 'Alerts');
    expect(alerts).toContain('**Emergency:** Critical: pulse 25 /min; Under 16: score with a paediatric early-warning chart.');
    expect(alerts).toContain('**Critical: pulse 25 /min:** below 30 /min, peri-arrest: call for help now (RCUK ALS 2021)');
    expect(alerts).not.toContain('NEWS2');
    expect(md).not.toContain('emergency response');
    expect(md).not.toContain('**Response (');
    expect(section(md, 'Vital signs')).toContain(
      '\nNEWS2 is not validated under 16; use a paediatric early-warning score. Critical values still apply; adult reference ranges and sepsis criteria may not.\n',
    );
    // the adult tier of the same score for a 15-year-old never reaches the alerts
    const child14 = withAge({ years: 15, months: 0, days: 0 }, NEWS2_14);
    expect(section(child14, 'Alerts')).not.toContain('NEWS2 14');
    expect(child14).not.toContain('emergency response');
    // from 16 years the adult tier applies, without the caveat
    const sixteen = withAge({ years: 16, months: 0, days: 0 }, { pulse: 25 });
    expect(section(sixteen, 'Alerts')).toContain('**NEWS2 6 medium:** urgent response');
    expect(sixteen).toContain('**Response (medium, RCP 2017 Chart 4):**');
    expect(sixteen).not.toContain('not validated under 16');
  });

  it('allergies on file: the allergy line and the drug–allergy alerts use every allergy known for the patient', () => {
    // a follow-up record prescribing amoxicillin; the earlier record said penicillin anaphylaxis
    const followUp = makeRecord({ allergies: '' });
    const without = buildSummary(followUp);
    expect(section(without.markdown, 'Allergies')).toBe('## Allergies\n**Allergies:** Not recorded.\n');
    const { markdown, alerts } = buildSummary(followUp, { allergiesOnFile: ['Penicillin (anaphylaxis)'] });
    expect(section(markdown, 'Allergies')).toBe(
      '## Allergies\n**Allergies:** Not recorded in this record.\n**On file (earlier records and prescriptions):** Penicillin (anaphylaxis)\n',
    );
    expect(alerts.map((a) => [a.substance, a.kind, a.severity])).toEqual([['Penicillin', 'allergy', 'stop']]);
    expect(section(markdown, 'Alerts')).toContain('**Drug–allergy alert (stop):**');
    expect(section(markdown, 'Alerts')).not.toContain('No alerts.');
    // this record's own note is not repeated as "on file"
    const same = buildSummary(makeRecord({ allergies: 'penicillin (anaphylaxis)' }), {
      allergiesOnFile: ['Penicillin (anaphylaxis)', 'Latex'],
    });
    expect(section(same.markdown, 'Allergies')).toBe(
      '## Allergies\n**Allergies:** penicillin (anaphylaxis)\n**On file (earlier records and prescriptions):** Latex\n',
    );
  });

  it('quotes at most five notes on file and counts the rest; every substance they name is on the allergy list', () => {
    const notes = ['Penicillin (anaphylaxis)', ...Array.from({ length: 11 }, (_, i) => `Latex ${i}`), 'Codeine (vomiting)'];
    const { markdown } = buildSummary(makeRecord({ allergies: '' }), {
      allergiesOnFile: notes,
      allergyEntries: notes.flatMap(readAllergyText),
    });
    const allergies = section(markdown, 'Allergies');
    expect(allergies).toContain(
      '**On file (earlier records and prescriptions):** Penicillin (anaphylaxis); Latex 0; Latex 1; Latex 2; Latex 3; and 8 more notes (each on the allergy list)',
    );
    expect(allergies).toMatch(/\*\*Allergy list:\*\*.*Codeine — vomiting/);
    expect(allergies).toMatch(/\*\*Allergy list:\*\*.*Penicillin — anaphylaxis \(severe\)/);
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
      '## Allergies',
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
        /^\s*#(?!# (Patient|Presenting complaint|Key history|Allergies|Vital signs|Investigations|Treatment|Alerts)$)/,
      );
  });

  it('inline() flattens a field to one safe line', () => {
    expect(inline('  ## a\n\nb\u2029c\u0085d  ')).toBe('a b c d');
    expect(inline('#\n# x')).toBe('x');
    expect(inline('a ** b *** c')).toBe('a * b * c');
  });
});

describe('buildSummary: medication safety', () => {
  it('checks structured allergy entries and each pair of the patient’s drugs once for interactions', () => {
    const { markdown, alerts } = buildSummary(
      makeRecord({ allergies: '', treatment: { ...NO_TREATMENT, prescribedDrug: 'Ibuprofen 400 mg' } }),
      {
        prescriptions: [{ prescribedDrug: 'Warfarin 5 mg', allergies: [] }],
        allergyEntries: [
          {
            substance: { text: 'Aspirin', code: 'aspirin' },
            type: 'allergy',
            criticality: 'high',
            reactions: [{ manifestation: 'angioedema', severity: 'severe' }],
            clinicalStatus: 'active',
            verificationStatus: 'confirmed',
          },
        ],
      },
    );
    expect(alerts.map((a) => [a.kind, a.severity])).toEqual([
      ['allergy', 'stop'],
      ['interaction', 'warning'],
    ]);
    expect(section(markdown, 'Alerts')).toContain('**Drug–drug interaction (warning):** Ibuprofen (an NSAID) with the patient');
  });

  it('a refuted structured entry and a negated note raise nothing', () => {
    const { alerts } = buildSummary(makeRecord({ allergies: 'no reaction to penicillin' }), {
      allergyEntries: [
        {
          substance: { text: 'Penicillin', code: 'class:penicillins' },
          type: 'allergy',
          criticality: 'high',
          reactions: [],
          clinicalStatus: 'active',
          verificationStatus: 'refuted',
        },
      ],
    });
    expect(alerts).toEqual([]);
  });

  it('with allergy entries given, a note a doctor reviewed (absent from them) no longer alerts', () => {
    // The record's own note says penicillin anaphylaxis, the drug is amoxicillin; a doctor refuted
    // that note, so allergyEntriesFor no longer returns it.
    const record = makeRecord({ allergies: 'Penicillin (anaphylaxis)' });
    expect(buildSummary(record).alerts.map((a) => a.severity)).toContain('stop');
    expect(buildSummary(record, { allergyEntries: [] }).alerts).toEqual([]);
  });
});
