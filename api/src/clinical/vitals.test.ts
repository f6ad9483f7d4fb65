import {
  bpCategory,
  flag,
  parseBloodPressure,
  parseBloodSugar,
  parseOxygenSaturation,
  parsePulse,
  parseRespiratoryRate,
  parseTemperature,
  REFERENCE,
} from './vitals';

describe('bpCategory (ACC/AHA 2017)', () => {
  it.each([
    [119, 79, 'normal'],
    [120, 79, 'elevated'],
    [129, 79, 'elevated'],
    [130, 79, 'stage 1 hypertension'],
    [121, 80, 'stage 1 hypertension'],
    [139, 89, 'stage 1 hypertension'],
    [140, 70, 'stage 2 hypertension'],
    [120, 90, 'stage 2 hypertension'],
    [180, 120, 'stage 2 hypertension'],
    [181, 100, 'hypertensive crisis'],
    [150, 121, 'hypertensive crisis'],
    [110, 85, 'stage 1 hypertension'], // the higher category wins
  ])('%d/%d is %s', (s, d, category) => {
    expect(bpCategory(s, d)).toBe(category);
  });
});

describe('parseBloodPressure: 2–3 digits each, plausible, systolic above diastolic', () => {
  it('reads systolic/diastolic, also inside a note', () => {
    expect(parseBloodPressure('128/84')).toEqual({ status: 'ok', value: { systolic: 128, diastolic: 84 } });
    expect(parseBloodPressure(' 128 / 84 mmHg ')).toEqual({ status: 'ok', value: { systolic: 128, diastolic: 84 } });
    expect(parseBloodPressure('BP 90/60 sitting')).toEqual({ status: 'ok', value: { systolic: 90, diastolic: 60 } });
  });
  it('"1200/80" is not read as 200/80, nor "120/800" as 120/80', () => {
    expect(parseBloodPressure('1200/80')).toEqual({ status: 'unreadable', raw: '1200/80' });
    expect(parseBloodPressure('120/800')).toMatchObject({
      status: 'implausible',
      reason: 'diastolic 800 mmHg is outside 20–200 mmHg',
    });
    expect(parseBloodPressure('120/8000')).toEqual({ status: 'unreadable', raw: '120/8000' });
    expect(parseBloodPressure('120.5/80')).toEqual({ status: 'unreadable', raw: '120.5/80' });
    expect(parseBloodPressure('9/6')).toEqual({ status: 'unreadable', raw: '9/6' });
  });
  it.each([
    ['50/20', 'ok'],
    ['49/20', 'implausible'],
    ['300/200', 'ok'],
    ['301/100', 'implausible'],
    ['120/19', 'implausible'],
    ['250/201', 'implausible'],
    ['80/80', 'implausible'],
    ['80/120', 'implausible'],
  ])('%s: %s', (text, status) => {
    expect(parseBloodPressure(text).status).toBe(status);
  });
  it('missing, unreadable', () => {
    expect(parseBloodPressure('')).toEqual({ status: 'missing' });
    expect(parseBloodPressure('   ')).toEqual({ status: 'missing' });
    expect(parseBloodPressure('high')).toEqual({ status: 'unreadable', raw: 'high' });
    expect(parseBloodPressure('128')).toEqual({ status: 'unreadable', raw: '128' });
    expect(parseBloodPressure('80/120')).toMatchObject({ reason: 'systolic (80) must be higher than diastolic (120)' });
  });
});

describe('parseTemperature: °C; °F only with its unit', () => {
  it('°C as typed', () => {
    expect(parseTemperature('37.2')).toEqual({ status: 'ok', value: { celsius: 37.2 } });
    expect(parseTemperature('38,5 °C')).toEqual({ status: 'ok', value: { celsius: 38.5 } });
  });
  it('°F with its unit, converted to °C at 0.1 °C', () => {
    expect(parseTemperature('101.3 °F')).toEqual({ status: 'ok', value: { celsius: 38.5, fahrenheit: 101.3 } });
    expect(parseTemperature('98.6F')).toEqual({ status: 'ok', value: { celsius: 37, fahrenheit: 98.6 } });
    expect(parseTemperature('100 fahrenheit')).toEqual({ status: 'ok', value: { celsius: 37.8, fahrenheit: 100 } });
  });
  it('a bare number is never guessed to be °F: 101.3 alone is an implausible °C', () => {
    expect(parseTemperature('101.3')).toEqual({ status: 'implausible', raw: '101.3', reason: 'above 45 °C' });
  });
  it('SPEC §5\'s old default "9" and other impossible values are implausible', () => {
    expect(parseTemperature('9')).toEqual({ status: 'implausible', raw: '9', reason: 'below 25 °C' });
    expect(parseTemperature('24.9').status).toBe('implausible');
    expect(parseTemperature('25').status).toBe('ok');
    expect(parseTemperature('45').status).toBe('ok');
    expect(parseTemperature('40 F')).toMatchObject({ status: 'implausible', reason: '40 °F read as 4.4 °C, below 25 °C' });
    expect(parseTemperature('120 F')).toMatchObject({ status: 'implausible', reason: '120 °F read as 48.9 °C, above 45 °C' });
    expect(parseTemperature('46 °C').status).toBe('implausible');
  });
  it('empty is missing; anything else is not interpreted', () => {
    expect(parseTemperature('')).toEqual({ status: 'missing' });
    expect(parseTemperature('febrile')).toEqual({ status: 'unreadable', raw: 'febrile' });
    expect(parseTemperature('37.2 axillary then 38')).toEqual({ status: 'unreadable', raw: '37.2 axillary then 38' });
  });
});

describe('pulse and respiratory rate plausibility', () => {
  it.each([
    [19, 'implausible'],
    [20, 'ok'],
    [300, 'ok'],
    [301, 'implausible'],
  ])('pulse %d: %s', (v, status) => {
    expect(parsePulse(v).status).toBe(status);
  });
  it.each([
    [2, 'implausible'],
    [3, 'ok'],
    [80, 'ok'],
    [81, 'implausible'],
  ])('respiratory rate %d: %s', (v, status) => {
    expect(parseRespiratoryRate(v).status).toBe(status);
  });
  it.each([
    [19, 'implausible'],
    [20, 'ok'],
    [100, 'ok'],
    [101, 'implausible'],
  ])('oxygen saturation %d: %s', (v, status) => {
    expect(parseOxygenSaturation(v).status).toBe(status);
  });
  it('absent is missing (not measured)', () => {
    expect(parsePulse(undefined)).toEqual({ status: 'missing' });
    expect(parseOxygenSaturation(null)).toEqual({ status: 'missing' });
    expect(parsePulse(null)).toEqual({ status: 'missing' });
    expect(parseRespiratoryRate(Number.NaN)).toEqual({ status: 'missing' });
  });
});

describe('parseBloodSugar: the unit is written, never guessed', () => {
  it('mg/dL or mmol/L as written, with the value in mmol/L', () => {
    expect(parseBloodSugar('RBS 95 mg/dl')).toMatchObject({
      status: 'ok',
      value: { value: 95, unit: 'mg/dL', postPrandial: false },
    });
    expect(parseBloodSugar('7.2 mmol/L')).toMatchObject({ status: 'ok', value: { value: 7.2, unit: 'mmol/L', mmolL: 7.2 } });
    const mg = parseBloodSugar('54 mg/dL');
    expect(mg.status === 'ok' && mg.value.mmolL).toBeCloseTo(3.0, 1);
  });
  it('a bare number is "unit unknown"; text without a unit is not interpreted', () => {
    expect(parseBloodSugar('6.5')).toEqual({ status: 'not-interpreted', raw: '6.5', why: 'unit unknown' });
    expect(parseBloodSugar('180')).toEqual({ status: 'not-interpreted', raw: '180', why: 'unit unknown' });
    expect(parseBloodSugar('normal')).toEqual({ status: 'not-interpreted', raw: 'normal', why: 'not interpreted' });
    expect(parseBloodSugar('')).toEqual({ status: 'missing' });
  });
  it('a signed or exponent number is not read as its digits: "-5 mmol/L" is not 5, "1e309 mg/dL" not 309', () => {
    for (const raw of ['-5 mmol/L', 'RBS -5 mmol/L', '+7 mmol/L', '\u22125 mmol/L', '1e309 mg/dL', '1E2 mg/dL', '5e-1 mmol/L'])
      expect(parseBloodSugar(raw)).toEqual({ status: 'not-interpreted', raw, why: 'not interpreted' });
    // a hyphen inside a label is not a sign
    expect(parseBloodSugar('post-meal 7 mmol/L')).toMatchObject({ status: 'ok', value: { value: 7 } });
  });
  it('HbA1c is not a glucose', () => {
    expect(parseBloodSugar('HbA1c 48 mmol/mol')).toMatchObject({ status: 'not-interpreted', why: 'HbA1c, not a glucose' });
    expect(parseBloodSugar('A1c 7.5%')).toMatchObject({ status: 'not-interpreted', why: 'HbA1c, not a glucose' });
  });
  it('a post-prandial label is read as such: "2hr PP 180 mg/dL" is 180 mg/dL post-prandial, not 2', () => {
    expect(parseBloodSugar('2hr PP 180 mg/dL')).toMatchObject({
      status: 'ok',
      value: { value: 180, unit: 'mg/dL', postPrandial: true },
    });
    expect(parseBloodSugar('post-prandial 9.1 mmol/L')).toMatchObject({ value: { value: 9.1, postPrandial: true } });
  });
});

describe('reference range flags (inclusive)', () => {
  it.each([
    [59, REFERENCE.pulse, 'low'],
    [60, REFERENCE.pulse, 'normal'],
    [100, REFERENCE.pulse, 'normal'],
    [101, REFERENCE.pulse, 'high'],
    [11, REFERENCE.respiratoryRate, 'low'],
    [12, REFERENCE.respiratoryRate, 'normal'],
    [21, REFERENCE.respiratoryRate, 'high'],
    [36.0, REFERENCE.temperature, 'low'],
    [36.1, REFERENCE.temperature, 'normal'],
    [38.0, REFERENCE.temperature, 'normal'],
    [38.1, REFERENCE.temperature, 'high'],
    [69, REFERENCE.glucoseMgDl, 'low'],
    [140, REFERENCE.glucoseMgDl, 'normal'],
    [141, REFERENCE.glucoseMgDl, 'high'],
    [3.8, REFERENCE.glucoseMmolL, 'low'],
    [7.8, REFERENCE.glucoseMmolL, 'normal'],
    [7.9, REFERENCE.glucoseMmolL, 'high'],
  ])('%d against %o is %s', (value, range, expected) => {
    expect(flag(value, range)).toBe(expected);
  });
});
