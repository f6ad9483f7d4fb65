import {
  bpCategory,
  flag,
  parseBloodPressure,
  parseBloodSugar,
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

describe('parseBloodPressure', () => {
  it('reads systolic/diastolic', () => {
    expect(parseBloodPressure('128/84')).toEqual({ status: 'ok', value: { systolic: 128, diastolic: 84 } });
    expect(parseBloodPressure(' 128 / 84 mmHg ')).toEqual({ status: 'ok', value: { systolic: 128, diastolic: 84 } });
    expect(parseBloodPressure('BP 90/60 sitting')).toEqual({ status: 'ok', value: { systolic: 90, diastolic: 60 } });
  });
  it('missing, unreadable, implausible', () => {
    expect(parseBloodPressure('')).toEqual({ status: 'missing' });
    expect(parseBloodPressure('   ')).toEqual({ status: 'missing' });
    expect(parseBloodPressure('high')).toEqual({ status: 'unreadable', raw: 'high' });
    expect(parseBloodPressure('128')).toEqual({ status: 'unreadable', raw: '128' });
    expect(parseBloodPressure('12/8').status).toBe('implausible');
    expect(parseBloodPressure('80/120').status).toBe('implausible');
    expect(parseBloodPressure('400/100').status).toBe('implausible');
  });
});

describe('parseTemperature', () => {
  it('°C as typed', () => {
    expect(parseTemperature('37.2')).toEqual({ status: 'ok', value: { celsius: 37.2 } });
    expect(parseTemperature('38,5 °C')).toEqual({ status: 'ok', value: { celsius: 38.5 } });
  });
  it('a value above 45 is °F, converted to °C at 0.1 °C', () => {
    expect(parseTemperature('101.3')).toEqual({ status: 'ok', value: { celsius: 38.5, fahrenheit: 101.3 } });
    expect(parseTemperature('98.6F')).toEqual({ status: 'ok', value: { celsius: 37, fahrenheit: 98.6 } });
  });
  it('the form default "9" and other impossible values are implausible', () => {
    expect(parseTemperature('9')).toEqual({ status: 'implausible', raw: '9', reason: 'below 25 °C' });
    expect(parseTemperature('24.9').status).toBe('implausible');
    expect(parseTemperature('25').status).toBe('ok');
    expect(parseTemperature('45').status).toBe('ok');
    expect(parseTemperature('40 F')).toMatchObject({ status: 'implausible', reason: '40 °F read as 4.4 °C, below 25 °C' });
    expect(parseTemperature('120')).toMatchObject({ status: 'implausible', reason: '120 °F read as 48.9 °C, above 45 °C' });
    expect(parseTemperature('46 °C').status).toBe('implausible');
  });
  it('empty is missing, text without a number unreadable', () => {
    expect(parseTemperature('')).toEqual({ status: 'missing' });
    expect(parseTemperature('febrile')).toEqual({ status: 'unreadable', raw: 'febrile' });
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
  it('absent is missing', () => {
    expect(parsePulse(null)).toEqual({ status: 'missing' });
    expect(parseRespiratoryRate(Number.NaN)).toEqual({ status: 'missing' });
  });
});

describe('parseBloodSugar', () => {
  it('mg/dL unless mmol appears', () => {
    expect(parseBloodSugar('180')).toEqual({ status: 'ok', value: { value: 180, unit: 'mg/dL' } });
    expect(parseBloodSugar('RBS 95 mg/dl')).toEqual({ status: 'ok', value: { value: 95, unit: 'mg/dL' } });
    expect(parseBloodSugar('7.2 mmol/L')).toEqual({ status: 'ok', value: { value: 7.2, unit: 'mmol/L' } });
    expect(parseBloodSugar('25 mg/dL')).toEqual({ status: 'ok', value: { value: 25, unit: 'mg/dL' } });
  });
  it('a bare small number has an unclear unit; text without a number is unreadable', () => {
    expect(parseBloodSugar('6.5')).toMatchObject({ status: 'unreadable', unitUnclear: true });
    expect(parseBloodSugar('normal')).toEqual({ status: 'unreadable', raw: 'normal' });
    expect(parseBloodSugar('')).toEqual({ status: 'missing' });
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
