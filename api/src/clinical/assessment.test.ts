import type { Assessment, MedicalRecord } from '@careloop/shared-contracts';
import { assessRecord, CRITICAL, type AssessmentContext } from './assessment';
import { buildSummary } from './summary';
import { compareRisk, patientAcuity, worklistOrder, type WorklistEntry } from './worklist';
import { assessment as emptyAssessment } from '../../../test-support/fixtures';

type Gpe = MedicalRecord['examination']['generalPhysicalExamination'];

/*
 * Every rule of the assessment (api/src/clinical/assessment.ts), each threshold at its edge. The
 * base record has no finding at all (normal, complete vital signs; no infection word; no drug), so
 * each test's finding comes from the one thing it changes.
 */

/** Normal adult vital signs, all seven NEWS2 parameters: NEWS2 0. */
const NORMAL: Gpe = {
  bloodPressure: '120/80',
  pulse: 72,
  temperature: '37.0',
  respiratoryRate: 16,
  bloodSugarLevel: '5.5 mmol/L',
  Notes: '',
  oxygenSaturation: 97,
  spo2Scale: 1,
  supplementalOxygen: false,
  consciousness: 'A',
  observedAt: '',
};

const NO_VITALS: Partial<Gpe> = {
  bloodPressure: '',
  pulse: null,
  temperature: '',
  respiratoryRate: null,
  bloodSugarLevel: '',
  oxygenSaturation: null,
  supplementalOxygen: null,
  consciousness: null,
};

const NO_TREATMENT = { prescribedDrug: '', dosage: '', administrationRoute: '', dosageFrequency: '' };

type Over = Partial<Omit<MedicalRecord, 'examination'>> & { gpe?: Partial<Gpe> };

/** An adult record with nothing to flag; override any part. */
function makeRecord(over: Over = {}): MedicalRecord {
  const { gpe, ...rest } = over;
  return {
    _id: '11111111-1111-4111-8111-111111111111',
    patient: '22222222-2222-4222-8222-222222222222',
    title: 'Mechanical fall',
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
      dateOfAdmission: '2025-03-04',
      maritalStatus: 'Married',
      address: { street: '1 Main St', city: 'Pune', state: 'MH', pinCode: '411001' },
    },
    doctorInfo: { doctorName: 'Dr Mehta', doctorEmail: 'mehta@example.com' },
    historyOfPresentingComplaints: 'Fall at home.',
    historyOfPresentingIllness: 'Hip pain on walking.',
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
      generalPhysicalExamination: { ...NORMAL, ...gpe },
      respiratorySystem: '',
      centralNervousSystem: '',
      cardiovascularSystem: '',
      gastrointestinalSystem: '',
    },
    investigations: { completeBloodCount: 'Normal.', chestXRay: 'Clear lung fields.' },
    treatment: NO_TREATMENT,
    createdAt: '2025-03-04T10:00:00.000Z',
    ...rest,
  };
}

const CTX: AssessmentContext = { computedAt: new Date('2025-03-04T10:05:00.000Z'), contextVersion: 3 };

const assess = (over: Over = {}, ctx: Partial<AssessmentContext> = {}) => assessRecord(makeRecord(over), { ...CTX, ...ctx });
const vitals = (gpe: Partial<Gpe>, ctx: Partial<AssessmentContext> = {}) => assess({ gpe }, ctx);
const titles = (a: Assessment, kind?: Assessment['findings'][number]['kind']) =>
  a.findings.filter((f) => !kind || f.kind === kind).map((f) => f.title);
const findingOf = (a: Assessment, title: string) => a.findings.find((f) => f.title === title);
const adult = (age: MedicalRecord['biodata']['age']) => ({ biodata: { ...makeRecord().biodata, age } });

describe('assessRecord: the base record', () => {
  it('normal complete vital signs and nothing else: no finding, acuity none', () => {
    const a = assess();
    expect(a).toEqual({
      acuity: 'none',
      reasons: [],
      findings: [],
      caveats: [],
      news2: { total: 0, complete: true, band: 'low', singleParameterThree: false, missing: [], applicable: true },
      medicationAlerts: [],
      hasVitals: true,
      observedAt: null,
      computedAt: '2025-03-04T10:05:00.000Z',
      contextVersion: 3,
    });
  });

  it('keeps the observation time as typed', () => {
    expect(vitals({ observedAt: ' 2025-03-04T09:15 ' }).observedAt).toBe('2025-03-04T09:15');
  });

  it('no vital sign at all: no NEWS2 and no NEWS2 finding', () => {
    const a = vitals(NO_VITALS);
    expect(a.hasVitals).toBe(false);
    expect(a.news2).toBeNull();
    expect(a.findings).toEqual([]);
    expect(a.acuity).toBe('none');
    // one reading is an observation set
    expect(vitals({ ...NO_VITALS, pulse: 80 }).hasVitals).toBe(true);
  });
});

describe('assessRecord: critical values (age-independent, emergency)', () => {
  const critical = (gpe: Partial<Gpe>) => titles(vitals(gpe), 'critical');

  it.each([
    ['pulse 40 not critical, 39 critical', { pulse: 40 }, { pulse: 39 }, 'Critical: pulse 39 /min'],
    ['pulse 140 not critical, 141 critical', { pulse: 140 }, { pulse: 141 }, 'Critical: pulse 141 /min'],
    ['RR 8 not critical, 7 critical', { respiratoryRate: 8 }, { respiratoryRate: 7 }, 'Critical: respiratory rate 7 /min'],
    ['RR 30 not critical, 31 critical', { respiratoryRate: 30 }, { respiratoryRate: 31 }, 'Critical: respiratory rate 31 /min'],
    [
      'systolic 90 not critical, 89 critical',
      { bloodPressure: '90/60' },
      { bloodPressure: '89/60' },
      'Critical: systolic 89 mmHg',
    ],
    ['temperature 39.9 not critical, 40 critical', { temperature: '39.9' }, { temperature: '40' }, 'Critical: temperature 40 °C'],
    [
      'temperature 35 not critical, 34.9 critical',
      { temperature: '35' },
      { temperature: '34.9' },
      'Critical: temperature 34.9 °C',
    ],
    [
      'glucose 3.0 not critical, 2.9 mmol/L critical',
      { bloodSugarLevel: '3.0 mmol/L' },
      { bloodSugarLevel: '2.9 mmol/L' },
      'Critical: glucose 2.9 mmol/L',
    ],
    [
      'glucose 54 not critical, 53 mg/dL critical',
      { bloodSugarLevel: '54 mg/dL' },
      { bloodSugarLevel: '53 mg/dL' },
      'Critical: glucose 53 mg/dL',
    ],
    [
      'glucose 25 not critical, 25.1 mmol/L critical',
      { bloodSugarLevel: '25 mmol/L' },
      { bloodSugarLevel: '25.1 mmol/L' },
      'Critical: glucose 25.1 mmol/L',
    ],
    [
      'glucose 450 not critical, 451 mg/dL critical',
      { bloodSugarLevel: '450 mg/dL' },
      { bloodSugarLevel: '451 mg/dL' },
      'Critical: glucose 451 mg/dL',
    ],
  ] as [string, Partial<Gpe>, Partial<Gpe>, string][])('%s', (_name, edge, beyond, title) => {
    expect(critical(edge)).toEqual([]);
    expect(critical(beyond)).toEqual([title]);
    const a = vitals(beyond);
    expect(a.acuity).toBe('emergency');
    expect(a.reasons[0]).toBe(title);
    expect(findingOf(a, title)).toMatchObject({ acuity: 'emergency', kind: 'critical' });
  });

  it('pulse below 30 is peri-arrest (RCUK), 30–39 a MET call', () => {
    expect(findingOf(vitals({ pulse: 29 }), 'Critical: pulse 29 /min')).toMatchObject({
      detail: 'below 30 /min, peri-arrest: call for help now',
      source: 'RCUK ALS 2021',
    });
    expect(findingOf(vitals({ pulse: 30 }), 'Critical: pulse 30 /min')).toMatchObject({
      detail: 'below 40 /min: assess now',
      source: expect.stringContaining('MET calling criteria'),
    });
  });

  it('systolic below 70 is profound hypotension, 70–89 hypotension', () => {
    expect(findingOf(vitals({ bloodPressure: '69/40' }), 'Critical: systolic 69 mmHg')?.detail).toBe(
      'below 70 mmHg, profound hypotension: resuscitate now',
    );
    expect(findingOf(vitals({ bloodPressure: '70/40' }), 'Critical: systolic 70 mmHg')?.detail).toBe(
      'below 90 mmHg, hypotension: assess for shock now',
    );
  });

  it('SpO2 below 85 % is critical on either scale (85 is not on scale 2)', () => {
    for (const supplementalOxygen of [false, true]) {
      expect(critical({ oxygenSaturation: 85, spo2Scale: 2, supplementalOxygen })).toEqual([]);
      const on = supplementalOxygen ? 'on oxygen' : 'on air';
      expect(critical({ oxygenSaturation: 84, spo2Scale: 2, supplementalOxygen })).toEqual([`Critical: SpO2 84 % ${on}`]);
    }
    expect(findingOf(vitals({ oxygenSaturation: 84, spo2Scale: 2 }), 'Critical: SpO2 84 % on air')?.detail).toBe(
      'below 85 % (scale 2): give oxygen and assess now',
    );
    // on scale 1, 84 is below 85 (the any-scale rule); 85 is only below 92 (the scale 1 rule)
    expect(findingOf(vitals({ oxygenSaturation: 84 }), 'Critical: SpO2 84 % on air')?.detail).toBe(
      'below 85 % (scale 1): give oxygen and assess now',
    );
    expect(findingOf(vitals({ oxygenSaturation: 85 }), 'Critical: SpO2 85 % on air')?.detail).toBe(
      'below 92 % on scale 1: assess now',
    );
  });

  it('SpO2 below 92 % is critical on scale 1 only', () => {
    expect(critical({ oxygenSaturation: 92 })).toEqual([]);
    expect(critical({ oxygenSaturation: 91 })).toEqual(['Critical: SpO2 91 % on air']);
    expect(critical({ oxygenSaturation: 91, supplementalOxygen: true })).toEqual(['Critical: SpO2 91 % on oxygen']);
    expect(critical({ oxygenSaturation: 91, supplementalOxygen: null })).toEqual(['Critical: SpO2 91 %']);
    expect(critical({ oxygenSaturation: 91, spo2Scale: 2 })).toEqual([]);
  });

  it.each(['LO', 'Lo', 'low'])('glucose meter "%s": critical (below the measuring range), not a data-quality finding', (text) => {
    const a = vitals({ bloodSugarLevel: text });
    expect(a.findings).toEqual([
      expect.objectContaining({ acuity: 'emergency', kind: 'critical', title: 'Critical: glucose meter “LO”' }),
    ]);
  });

  it.each(['HI', 'hi', 'High'])('glucose meter "%s": critical (above the measuring range)', (text) => {
    const a = vitals({ bloodSugarLevel: text });
    expect(a.findings).toEqual([
      expect.objectContaining({ acuity: 'emergency', kind: 'critical', title: 'Critical: glucose meter “HI”' }),
    ]);
  });

  it('a glucose text that only contains LO is not the meter reading', () => {
    expect(titles(vitals({ bloodSugarLevel: 'LO on meter' }), 'critical')).toEqual([]);
  });

  it('new confusion (C) and V, P, U are critical; A is not', () => {
    expect(critical({ consciousness: 'A' })).toEqual([]);
    expect(critical({ consciousness: 'C' })).toEqual(['Critical: new confusion']);
    for (const c of ['V', 'P', 'U'] as const)
      expect(critical({ consciousness: c })).toEqual([`Critical: reduced consciousness (ACVPU “${c}”)`]);
    expect(findingOf(vitals({ consciousness: 'U' }), 'Critical: reduced consciousness (ACVPU “U”)')?.detail).toBe(
      'unresponsive: assess airway and call for help now',
    );
  });

  it('the thresholds are the documented ones', () => {
    expect(CRITICAL).toMatchObject({
      pulse: { low: 40, high: 140, periArrest: 30 },
      respiratoryRate: { low: 8, high: 30 },
      systolic: { low: 90, critical: 70 },
      spo2: { anyScale: 85, scale1: 92 },
      temperature: { high: 40, low: 35 },
      glucose: { 'mmol/L': { hypo: 3.0, low: 4.0, high: 25 }, 'mg/dL': { hypo: 54, high: 450 } },
    });
  });
});

describe('assessRecord: low glucose, blood pressure, data quality', () => {
  it('glucose below 4.0 mmol/L (72 mg/dL) is urgent, not critical; 4.0 and 72 raise nothing', () => {
    expect(vitals({ bloodSugarLevel: '4.0 mmol/L' }).findings).toEqual([]);
    expect(vitals({ bloodSugarLevel: '72 mg/dL' }).findings).toEqual([]);
    for (const [text, title] of [
      ['3.9 mmol/L', 'Low glucose 3.9 mmol/L'],
      ['3.0 mmol/L', 'Low glucose 3 mmol/L'],
      ['71 mg/dL', 'Low glucose 71 mg/dL'],
    ]) {
      const a = vitals({ bloodSugarLevel: text });
      expect(a.findings).toEqual([expect.objectContaining({ acuity: 'urgent', kind: 'glucose', title })]);
      expect(a.acuity).toBe('urgent');
    }
  });

  it('a hypertensive crisis reading is urgent; 180/120 is not a crisis', () => {
    expect(vitals({ bloodPressure: '180/120' }).findings).toEqual([]);
    for (const bp of ['181/100', '170/121']) {
      const a = vitals({ bloodPressure: bp });
      expect(a.findings).toEqual([
        expect.objectContaining({ acuity: 'urgent', kind: 'blood-pressure', title: `Blood pressure ${bp} mmHg` }),
      ]);
    }
  });

  it('implausible or uninterpreted readings are review findings (re-measure), never silence', () => {
    const a = vitals({ pulse: 10, temperature: 'warm to touch', bloodSugarLevel: '2.1', bloodPressure: '1200/80' });
    expect(a.findings.filter((f) => f.kind === 'data-quality')).toEqual([
      expect.objectContaining({ acuity: 'review', title: 'Blood pressure “1200/80” not interpreted' }),
      expect.objectContaining({
        acuity: 'review',
        title: 'Implausible pulse “10”',
        detail: expect.stringContaining('below 20 /min'),
      }),
      expect.objectContaining({ acuity: 'review', title: 'Temperature “warm to touch” not interpreted' }),
      expect.objectContaining({
        acuity: 'review',
        title: 'Blood sugar level “2.1” not interpreted',
        detail: expect.stringContaining('unit unknown'),
      }),
    ]);
    // a bare glucose number is never read as a hypoglycaemia
    expect(titles(a, 'critical')).toEqual([]);
    expect(titles(a, 'glucose')).toEqual([]);
  });
});

describe('assessRecord: NEWS2 tiers (adult)', () => {
  const news2Finding = (gpe: Partial<Gpe>) => vitals(gpe).findings.filter((f) => f.kind === 'news2');

  it('0: nothing; 1–4: review', () => {
    expect(news2Finding({})).toEqual([]);
    expect(news2Finding({ oxygenSaturation: 95 })).toEqual([expect.objectContaining({ acuity: 'review', title: 'NEWS2 1 low' })]);
    // SpO2 95 (1) + pulse 91 (1) + RR 21 (2)
    expect(news2Finding({ oxygenSaturation: 95, pulse: 91, respiratoryRate: 21 })).toEqual([
      expect.objectContaining({ acuity: 'review', title: 'NEWS2 4 low' }),
    ]);
  });

  it('5–6: urgent; 7 and above: emergency', () => {
    const five = { oxygenSaturation: 95, pulse: 91, respiratoryRate: 21, temperature: '36.0' };
    expect(news2Finding(five)).toEqual([expect.objectContaining({ acuity: 'urgent', title: 'NEWS2 5 medium' })]);
    expect(news2Finding({ ...five, bloodPressure: '110/70' })).toEqual([
      expect.objectContaining({ acuity: 'urgent', title: 'NEWS2 6 medium' }),
    ]);
    const seven = vitals({ ...five, bloodPressure: '110/70', oxygenSaturation: 94, pulse: 111 });
    expect(seven.news2).toMatchObject({ total: 7, complete: true, band: 'high' });
    expect(seven.findings).toEqual([
      expect.objectContaining({
        acuity: 'emergency',
        kind: 'news2',
        title: 'NEWS2 7 high',
        detail: expect.stringContaining('emergency response'),
      }),
    ]);
    expect(seven.acuity).toBe('emergency');
  });

  it('a single parameter scoring 3 is urgent', () => {
    expect(news2Finding({ respiratoryRate: 25 })).toEqual([
      expect.objectContaining({ acuity: 'urgent', title: 'NEWS2 3, single parameter scoring 3 (respiratory rate)' }),
    ]);
  });

  it('an incomplete score is a review, unless its lower bound already reaches 5 or 7', () => {
    const missingSpo2 = { oxygenSaturation: null };
    const four = vitals({ ...missingSpo2, pulse: 91, respiratoryRate: 22, temperature: '38.1' });
    expect(four.news2).toMatchObject({ total: 4, complete: false, missing: ['oxygenSaturation'] });
    expect(four.news2).not.toHaveProperty('band');
    expect(four.findings.filter((f) => f.kind === 'news2')).toEqual([
      expect.objectContaining({ acuity: 'review', title: 'NEWS2 incomplete (at least 4)' }),
    ]);
    expect(news2Finding({ ...missingSpo2, pulse: 111, respiratoryRate: 22, temperature: '36.0' })).toEqual([
      expect.objectContaining({ acuity: 'urgent', title: 'NEWS2 at least 5 (incomplete) medium' }),
    ]);
    expect(
      news2Finding({ ...missingSpo2, pulse: 111, respiratoryRate: 22, temperature: '36.0', bloodPressure: '100/60' }),
    ).toEqual([expect.objectContaining({ acuity: 'emergency', title: 'NEWS2 at least 7 (incomplete) high' })]);
  });
});

describe('assessRecord: acuity order', () => {
  it('a critical value is an emergency whatever the NEWS2 (hypoglycaemia with NEWS2 0)', () => {
    const a = vitals({ bloodSugarLevel: '2.5 mmol/L' });
    expect(a.news2).toMatchObject({ total: 0, complete: true });
    expect(a.acuity).toBe('emergency');
    expect(a.reasons).toEqual(['Critical: glucose 2.5 mmol/L']);
  });

  it('critical values come before NEWS2, and the most urgent finding is first', () => {
    // pulse 141 (critical) with NEWS2 7: both emergencies, the critical value first
    const a = vitals({ pulse: 141, respiratoryRate: 25, temperature: '38.0', oxygenSaturation: 95 });
    expect(a.news2).toMatchObject({ total: 7 });
    expect(a.reasons).toEqual(['Critical: pulse 141 /min', 'NEWS2 7 high']);
    // urgent before review: low glucose (urgent) before NEWS2 1 (review)
    const b = vitals({ bloodSugarLevel: '3.5 mmol/L', oxygenSaturation: 95 });
    expect(b.reasons).toEqual(['Low glucose 3.5 mmol/L', 'NEWS2 1 low']);
    expect(b.acuity).toBe('urgent');
    // the acuity is the highest finding's; reasons are every finding's title in order
    const c = vitals({ bloodSugarLevel: '3.5 mmol/L', bloodPressure: '190/125', pulse: 141, oxygenSaturation: 95 });
    expect(c.findings.map((f) => f.acuity)).toEqual(['emergency', 'urgent', 'urgent', 'urgent']);
    expect(c.reasons[0]).toBe('Critical: pulse 141 /min');
    expect(c.reasons).toHaveLength(c.findings.length);
  });
});

describe('assessRecord: fail-safe context', () => {
  /**
   * NEWS2 14 without a critical value or a sign of infection: RR 25 (3), SpO2 92 % (2) on oxygen
   * (2), systolic 90 (3), pulse 131 (3), alert (0), 36.0 °C (1)
   */
  const fourteen: Partial<Gpe> = {
    respiratoryRate: 25,
    oxygenSaturation: 92,
    supplementalOxygen: true,
    bloodPressure: '90/60',
    pulse: 131,
    consciousness: 'A',
    temperature: '36.0',
  };

  it('unknown age: adult NEWS2 rules, the emergency NEWS2 finding, and a caveat', () => {
    const a = assess({ ...adult(null), gpe: fourteen });
    expect(a.news2).toMatchObject({ total: 14, complete: true, applicable: true });
    expect(findingOf(a, 'NEWS2 14 high')).toMatchObject({ acuity: 'emergency', kind: 'news2' });
    expect(a.acuity).toBe('emergency');
    expect(a.caveats).toEqual(['Age unknown — adult NEWS2 used.']);
    // a known adult: the same finding, no caveat
    const known = assess({ gpe: fourteen });
    expect(titles(known, 'news2')).toEqual(['NEWS2 14 high']);
    expect(known.caveats).toEqual([]);
  });

  it('unknown age: a pulse of 25 is critical', () => {
    const a = assess({ ...adult(null), gpe: { pulse: 25 } });
    expect(a.reasons[0]).toBe('Critical: pulse 25 /min');
    expect(a.acuity).toBe('emergency');
    expect(a.caveats).toContain('Age unknown — adult NEWS2 used.');
  });

  it('under 16: critical values still alert, no adult NEWS2 tier, the paediatric caveat', () => {
    const a = assess({ ...adult({ years: 15, months: 11, days: 30 }), gpe: { pulse: 25 } });
    expect(a.findings).toEqual([
      expect.objectContaining({ acuity: 'emergency', kind: 'critical', title: 'Critical: pulse 25 /min' }),
      // never "nothing found" for a child's vitals: a paediatric score is due
      expect.objectContaining({
        acuity: 'review',
        kind: 'news2',
        title: 'Under 16: score with a paediatric early-warning chart',
      }),
    ]);
    expect(a.acuity).toBe('emergency');
    expect(a.news2).toMatchObject({ total: 3, applicable: false });
    expect(a.caveats).toEqual([
      'NEWS2 is not validated under 16; use a paediatric early-warning score. Critical values still apply; adult reference ranges and sepsis criteria may not.',
    ]);
    expect(JSON.stringify(a.findings)).not.toMatch(/emergency response|NEWS2/);
    // the same NEWS2 14 gives no NEWS2 finding under 16, and one at 16
    const child = assess({ ...adult({ years: 15, months: 0, days: 0 }), gpe: fourteen });
    expect(child.news2).toMatchObject({ total: 14, applicable: false });
    expect(titles(child, 'news2')).toEqual(['Under 16: score with a paediatric early-warning chart']);
    // an adult chart at 14 would call for an urgent response: the child is not ranked below it
    expect(child.acuity).toBe('urgent');
    const sixteen = assess({ ...adult({ years: 16, months: 0, days: 0 }), gpe: fourteen });
    expect(titles(sixteen, 'news2')).toEqual(['NEWS2 14 high']);
    expect(sixteen.caveats).toEqual([]);
    expect(sixteen.news2?.applicable).toBe(true);
  });

  it('the date of birth on file gives the age on the day of admission (over the record snapshot)', () => {
    // the snapshot says 54, the date of birth says 10 on 2025-03-04
    const child = assess({ gpe: fourteen }, { dob: '2015-01-01' });
    expect(child.news2?.applicable).toBe(false);
    expect(titles(child, 'news2')).toEqual(['Under 16: score with a paediatric early-warning chart']);
    // no snapshot age, but a date of birth: not "unknown"
    const known = assess({ ...adult(null), gpe: fourteen }, { dob: '1970-01-01' });
    expect(known.caveats).toEqual([]);
    expect(titles(known, 'news2')).toEqual(['NEWS2 14 high']);
    // turning 16 on the day of admission
    expect(assess({ gpe: fourteen }, { dob: '2009-03-04' }).news2?.applicable).toBe(true);
    expect(assess({ gpe: fourteen }, { dob: '2009-03-05' }).news2?.applicable).toBe(false);
  });

  it('pregnancy: a caveat (obstetric chart), the NEWS2 findings kept', () => {
    const a = assess({ gpe: fourteen }, { pregnancy: { status: 'pregnant', gestationWeeks: 32 } });
    expect(a.caveats).toEqual(['NEWS2 is not validated in pregnancy (32 weeks) — use an obstetric early-warning chart (MEOWS).']);
    expect(titles(a, 'news2')).toEqual(['NEWS2 14 high']);
    expect(a.acuity).toBe('emergency');
    expect(a.news2?.applicable).toBe(true);
    expect(assess({ gpe: fourteen }, { pregnancy: { status: 'pregnant' } }).caveats).toEqual([
      'NEWS2 is not validated in pregnancy — use an obstetric early-warning chart (MEOWS).',
    ]);
    for (const status of ['not-pregnant', 'unknown'] as const)
      expect(assess({ gpe: fourteen }, { pregnancy: { status } }).caveats).toEqual([]);
  });
});

describe('assessRecord: sepsis screen (NICE NG51; qSOFA)', () => {
  /** one NG51 high-risk criterion (RR 25), no fever */
  const RR25: Partial<Gpe> = { respiratoryRate: 25 };
  const sepsis = (a: Assessment) => findingOf(a, 'Possible sepsis');

  it('no sign of infection: no screen, even with a high-risk criterion', () => {
    expect(sepsis(vitals(RR25))).toBeUndefined();
  });

  it.each([
    ['pyelonephritis in the title', { title: 'Acute pyelonephritis' }, 'pyelonephritis'],
    ['cholangitis in the title', { title: 'Ascending cholangitis' }, 'cholangitis'],
    ['pneumonia in the chest X-ray', { investigations: { chestXRay: 'Right lower lobe pneumonia.' } }, 'pneumonia'],
    ['a word in the examination notes', { gpe: { Notes: 'Cellulitis of the left leg.' } }, 'Cellulitis'],
    ['a word in the systemic history', { systemicHistory: { genitourinary: 'Dysuria for 2 days.' } }, 'Dysuria'],
    ['a word in the complaints', { historyOfPresentingComplaints: 'Productive cough for 3 days.' }, 'Productive cough'],
    ['a word in another investigation', { investigations: { urineAnalysis: 'Nitrites positive.' } }, 'Nitrites'],
  ] as [string, Over, string][])('an infection word anywhere: %s', (_name, over, word) => {
    const a = assess({ ...over, gpe: { ...RR25, ...over.gpe } });
    expect(sepsis(a)).toMatchObject({
      acuity: 'emergency',
      kind: 'sepsis',
      detail: `NICE NG51 high-risk criteria: respiratory rate 25 /min (≥ 25) (infection suggested: “${word}”): assess for sepsis now`,
      source: 'NICE NG51; qSOFA (Seymour, JAMA 2016)',
    });
    expect(a.acuity).toBe('emergency');
    expect(a.reasons[0]).toBe('Possible sepsis');
    // the same sign of infection with no criterion: no alert
    expect(sepsis(assess(over))).toBeUndefined();
  });

  it('fever above 38 °C (38.0 is not)', () => {
    expect(sepsis(vitals({ ...RR25, temperature: '38.0' }))).toBeUndefined();
    expect(sepsis(vitals({ ...RR25, temperature: '38.1' }))?.detail).toContain('(fever)');
  });

  it('an antibiotic prescribed: the record treatment drug or another drug on file', () => {
    const amoxicillin = { treatment: { ...NO_TREATMENT, prescribedDrug: 'Amoxicillin 500 mg capsules' }, gpe: RR25 };
    expect(sepsis(assess(amoxicillin))?.detail).toContain('(antibiotic prescribed: Amoxicillin 500 mg capsules)');
    expect(sepsis(vitals(RR25, { otherDrugs: ['Ceftriaxone 1 g IV'] }))?.detail).toContain(
      '(antibiotic prescribed: Ceftriaxone 1 g IV)',
    );
    // not an antibiotic
    expect(sepsis(vitals(RR25, { otherDrugs: ['Paracetamol 1 g', 'Metoprolol 25 mg'] }))).toBeUndefined();
    expect(sepsis(assess({ ...amoxicillin, treatment: { ...NO_TREATMENT, prescribedDrug: 'Paracetamol 1 g' } }))).toBeUndefined();
  });

  it('each NG51 high-risk criterion at its edge', () => {
    const screen = (gpe: Partial<Gpe>) => sepsis(assess({ title: 'Urinary tract infection', gpe }))?.detail;
    expect(screen({})).toBeUndefined();
    expect(screen({ respiratoryRate: 24 })).toBeUndefined();
    expect(screen({ respiratoryRate: 25 })).toContain('respiratory rate 25 /min (≥ 25)');
    expect(screen({ bloodPressure: '91/60' })).toBeUndefined();
    expect(screen({ bloodPressure: '90/60' })).toContain('systolic 90 mmHg (≤ 90)');
    expect(screen({ pulse: 130 })).toBeUndefined();
    expect(screen({ pulse: 131 })).toContain('heart rate 131 /min (> 130)');
    expect(screen({ consciousness: 'C' })).toContain('altered mental state (ACVPU C)');
    expect(screen({ temperature: '36.0' })).toBeUndefined();
    expect(screen({ temperature: '35.9' })).toContain('temperature 35.9 °C (< 36)');
    expect(screen({ oxygenSaturation: 92 })).toBeUndefined();
    expect(screen({ oxygenSaturation: 91 })).toContain('SpO2 91 % on air (< 92)');
  });

  it('SpO2 of 92 % or less on oxygen (88 % or less on scale 2) is a criterion', () => {
    const screen = (gpe: Partial<Gpe>) =>
      sepsis(assess({ title: 'Pneumonia', gpe: { supplementalOxygen: true, ...gpe } }))?.detail;
    expect(screen({ oxygenSaturation: 93 })).toBeUndefined();
    expect(screen({ oxygenSaturation: 92 })).toContain('SpO2 92 % on oxygen (not above 92 %)');
    expect(screen({ oxygenSaturation: 89, spo2Scale: 2 })).toBeUndefined();
    expect(screen({ oxygenSaturation: 88, spo2Scale: 2 })).toContain('SpO2 88 % on oxygen (not above 88 %)');
  });

  it('qSOFA ≥ 2 (RR ≥ 22, altered mentation, systolic ≤ 100) without an NG51 criterion', () => {
    const screen = (gpe: Partial<Gpe>) => sepsis(assess({ title: 'Pneumonia', gpe }))?.detail;
    expect(screen({ respiratoryRate: 22 })).toBeUndefined();
    expect(screen({ respiratoryRate: 22, bloodPressure: '101/60' })).toBeUndefined();
    expect(screen({ respiratoryRate: 21, bloodPressure: '100/60' })).toBeUndefined();
    expect(screen({ respiratoryRate: 22, bloodPressure: '100/60' })).toBe(
      'qSOFA 2/3: respiratory rate 22 /min (≥ 22), systolic 100 mmHg (≤ 100) (infection suggested: “Pneumonia”): assess for sepsis now',
    );
  });

  it('the record from the issue: NEWS2 13 emergency, possible sepsis, acuity emergency', () => {
    const a = assess({
      title: 'Unwell',
      gpe: {
        respiratoryRate: 24,
        oxygenSaturation: 91,
        spo2Scale: 1,
        supplementalOxygen: false,
        bloodPressure: '98/60',
        pulse: 118,
        temperature: '38.6',
        consciousness: 'C',
      },
    });
    expect(a.news2).toEqual({
      total: 13,
      complete: true,
      band: 'high',
      singleParameterThree: true,
      missing: [],
      applicable: true,
    });
    expect(a.acuity).toBe('emergency');
    expect(findingOf(a, 'NEWS2 13 high')).toMatchObject({ acuity: 'emergency', kind: 'news2' });
    expect(sepsis(a)).toMatchObject({
      acuity: 'emergency',
      detail:
        'NICE NG51 high-risk criteria: SpO2 91 % on air (< 92), altered mental state (ACVPU C); qSOFA 3/3: respiratory rate 24 /min (≥ 22), altered mentation, systolic 98 mmHg (≤ 100) (fever): assess for sepsis now',
    });
    expect(a.reasons).toEqual(['Possible sepsis', 'Critical: SpO2 91 % on air', 'Critical: new confusion', 'NEWS2 13 high']);
  });

  it('reads the record’s own text, not its stored assessment or summary', () => {
    // a stored assessment of a child (whose caveat mentions sepsis) and a summary naming sepsis
    const stored = assess({ ...adult({ years: 15, months: 0, days: 0 }), title: 'Pneumonia', gpe: RR25 });
    expect(stored.caveats.join(' ')).toContain('sepsis');
    const record = makeRecord({
      gpe: RR25,
      assessment: { ...stored, findings: [{ ...stored.findings[0], title: 'Possible sepsis', detail: 'fever' }] },
      summary: '## Alerts\n**Possible sepsis:** (fever)',
      summaryInfo: {
        generatedAt: '2025-03-04T10:00:00.000Z',
        contextVersion: 1,
        rewrittenBy: 'Narrative rewritten by a model that mentions pneumonia',
        regeneratedOutOfDate: false,
        previousGeneratedAt: null,
      },
    });
    const a = assessRecord(record, CTX);
    expect(sepsis(a)).toBeUndefined();
    // and the same assessment as for a record without them
    expect(a).toEqual(assess({ gpe: RR25 }));
  });
});

describe('assessRecord: medication alerts', () => {
  const amoxicillin = { treatment: { ...NO_TREATMENT, prescribedDrug: 'Amoxicillin 500 mg capsules' } };

  it('a "stop" alert is urgent, a warning is a review', () => {
    const stop = assess(amoxicillin, { allergyNotes: ['Penicillin (anaphylaxis)'] });
    expect(stop.medicationAlerts.map((m) => m.severity)).toEqual(['stop']);
    expect(stop.findings).toEqual([
      expect.objectContaining({ acuity: 'urgent', kind: 'medication', title: 'Drug–allergy alert (stop)' }),
    ]);
    expect(stop.acuity).toBe('urgent');
    const warning = assess(amoxicillin, { allergyNotes: ['Penicillin (rash)'] });
    expect(warning.findings).toEqual([
      expect.objectContaining({ acuity: 'review', kind: 'medication', title: 'Drug–allergy alert (warning)' }),
    ]);
    expect(warning.acuity).toBe('review');
    expect(assess(amoxicillin).findings).toEqual([]);
  });

  it('checks the other drugs on file, each pair once for interactions', () => {
    const a = assess(
      { treatment: { ...NO_TREATMENT, prescribedDrug: 'Ibuprofen 400 mg' } },
      { otherDrugs: ['Warfarin 5 mg', 'warfarin 5 mg'] },
    );
    expect(a.medicationAlerts.map((m) => m.kind)).toEqual(['interaction']);
    expect(titles(a, 'medication')).toEqual([expect.stringMatching(/^Drug–drug interaction \(/)]);
  });

  it('a drug the vocabulary does not know is never "no alert": a review finding says it was not checked', () => {
    const unknown = assess(
      { treatment: { ...NO_TREATMENT, prescribedDrug: 'Zorblatrin 10 mg' } },
      { allergyNotes: ['Penicillin (anaphylaxis)'] },
    );
    expect(unknown.findings).toEqual([
      expect.objectContaining({
        acuity: 'review',
        kind: 'medication',
        title: 'Not checked: drug not recognised',
        detail: '“Zorblatrin 10 mg” was not recognised: allergy and interaction checks were not performed for it',
      }),
    ]);
    expect(unknown.acuity).toBe('review');
    // an unknown drug on file is said too; a known one adds nothing
    expect(titles(assess(amoxicillin, { otherDrugs: ['Zorblatrin 10 mg'] }), 'medication')).toEqual([
      'Not checked: drug not recognised',
    ]);
    expect(assess(amoxicillin, { otherDrugs: ['Paracetamol 1 g'] }).findings).toEqual([]);
  });
});

describe('summary: the blood pressure line never says "normal" at or below systolic 100 (qSOFA)', () => {
  const bpLine = (bp: string) =>
    buildSummary(makeRecord({ gpe: { bloodPressure: bp } }))
      .markdown.split('\n')
      .find((l) => l.startsWith('**Blood pressure:**'))!;
  const saysNormal = /(?<!low-)\bnormal\b/;

  it('a systolic of 101 may be normal (the check can fail)', () => {
    expect(bpLine('101/70')).toMatch(saysNormal);
  });

  it('every systolic from 70 to 100 with any diastolic', () => {
    for (let s = 70; s <= 100; s++)
      for (const d of [40, 55, 60, 65, 70, 79, 80, 85, 90])
        if (d < s) expect([`${s}/${d}`, bpLine(`${s}/${d}`)]).toEqual([`${s}/${d}`, expect.not.stringMatching(saysNormal)]);
  });

  it('says why: a qSOFA criterion', () => {
    expect(bpLine('100/70')).toBe(
      '**Blood pressure:** 100/70 mmHg (reference 90–120/60–80 mmHg): systolic 100 mmHg is at or below 100 (a qSOFA criterion); reading in the low-normal range (one reading; confirm on repeat)',
    );
  });
});

describe('patientAcuity and the worklist order', () => {
  /** a stored record: its assessment computed as the api does */
  const stored = (over: Over, createdAt: string, id: string): MedicalRecord => {
    const r = makeRecord({ ...over, _id: id, createdAt });
    return { ...r, assessment: assessRecord(r, CTX) };
  };
  /** NEWS2 9, no critical value: RR 25 (3), SpO2 93 (2), systolic 100 (2), pulse 111 (2) */
  const nine = stored(
    { gpe: { respiratoryRate: 25, oxygenSaturation: 93, bloodPressure: '100/60', pulse: 111 } },
    '2025-03-01T10:00:00.000Z',
    'a-nine',
  );
  const later = stored(
    { gpe: NO_VITALS, treatment: { ...NO_TREATMENT, prescribedDrug: 'Amoxicillin 500 mg capsules' }, allergies: '' },
    '2025-03-02T10:00:00.000Z',
    'b-later',
  );

  it('a later record without vital signs does not replace the last vitals’ NEWS2 9', () => {
    expect(nine.assessment.news2).toMatchObject({ total: 9, complete: true });
    expect(later.assessment.hasVitals).toBe(false);
    const row = patientAcuity([later, nine]);
    expect(row.acuity).toBe('emergency');
    expect(row.reasons).toEqual(['NEWS2 9 high']);
    expect(row.lastVitals).toBe(nine);
    expect(row.previousVitals).toBeUndefined();
  });

  it('adds the later record’s findings to the last vitals’ findings, most urgent first', () => {
    const vitalsLow = stored({ gpe: { oxygenSaturation: 95 } }, '2025-03-01T10:00:00.000Z', 'a-low');
    // the later record prescribes amoxicillin to a patient with penicillin anaphylaxis on file
    const stop = { ...later, assessment: assessRecord(later, { ...CTX, allergyNotes: ['Penicillin (anaphylaxis)'] }) };
    expect(titles(stop.assessment)).toEqual(['Drug–allergy alert (stop)']);
    const row = patientAcuity([stop, vitalsLow]);
    expect(row.acuity).toBe('urgent');
    expect(row.reasons).toEqual(['Drug–allergy alert (stop)', 'NEWS2 1 low']);
    expect(row.lastVitals).toBe(vitalsLow);
  });

  it('no vital signs at all: a review ("No vital signs recorded"), not reassurance', () => {
    expect(patientAcuity([])).toEqual({
      acuity: 'review',
      reasons: ['No vital signs recorded'],
      lastVitals: undefined,
      previousVitals: undefined,
    });
    expect(patientAcuity([later])).toMatchObject({ acuity: 'review', reasons: ['No vital signs recorded'] });
  });

  it('the last and the previous observation sets', () => {
    const older = stored({ gpe: { oxygenSaturation: 95 } }, '2025-02-01T10:00:00.000Z', 'z-older');
    const row = patientAcuity([later, nine, older]);
    expect(row.lastVitals).toBe(nine);
    expect(row.previousVitals).toBe(older);
    // the older set's finding is not a reason now
    expect(row.reasons).toEqual(['NEWS2 9 high']);
  });

  it('a hypoglycaemic NEWS2-0 patient ranks above a NEWS2-5 patient', () => {
    const hypo = stored({ gpe: { bloodSugarLevel: '2.5 mmol/L' } }, '2025-03-01T10:00:00.000Z', 'hypo');
    const five = stored(
      { gpe: { oxygenSaturation: 95, pulse: 91, respiratoryRate: 21, temperature: '36.0' } },
      '2025-03-01T10:00:00.000Z',
      'five',
    );
    expect(hypo.assessment.news2).toMatchObject({ total: 0, complete: true });
    expect(five.assessment.news2).toMatchObject({ total: 5, complete: true });
    const entry = (name: string, r: MedicalRecord, acuity = true): WorklistEntry => ({
      name,
      id: r._id,
      ...(acuity ? { acuity: patientAcuity([r]).acuity } : {}),
      latest: { news2: r.assessment.news2!, recordedAt: new Date(r.createdAt) },
    });
    expect(entry('hypo', hypo).acuity).toBe('emergency');
    expect(entry('five', five).acuity).toBe('urgent');
    expect(compareRisk(entry('hypo', hypo), entry('five', five))).toBeLessThan(0);
    expect(compareRisk(entry('five', five), entry('hypo', hypo))).toBeGreaterThan(0);
    expect(worklistOrder([entry('five', five), entry('hypo', hypo)]).map((e) => e.name)).toEqual(['hypo', 'five']);
    // by NEWS2 alone (no acuity) the order would be the other way round
    expect(worklistOrder([entry('hypo', hypo, false), entry('five', five, false)]).map((e) => e.name)).toEqual(['five', 'hypo']);
  });
});
