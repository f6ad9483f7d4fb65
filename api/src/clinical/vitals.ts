import {
  checkBloodPressure,
  glucoseUnitOf,
  readTemperature,
  SIGNED_OR_EXPONENT,
  TEMPERATURE_RANGE_C,
  vitalSign,
  type GlucoseUnit,
  type VitalSign,
} from '@careloop/shared-contracts';

/*
 * Reading the record's vital signs: parsing the typed text, rejecting values no living patient can
 * have (so they are never scored), and flagging each against adult reference ranges.
 */

/** A reading: usable, absent, unreadable text, or a number that cannot be right. */
export type Reading<T> =
  | { status: 'ok'; value: T }
  | { status: 'missing' }
  | { status: 'unreadable'; raw: string }
  | { status: 'implausible'; raw: string; reason: string };

export type Flag = 'low' | 'normal' | 'high';

/** The first number in a text; a decimal comma is read as a point ("37,8"). */
export function firstNumber(text: string): number | undefined {
  const m = /[-+]?\d+(?:[.,]\d+)?/.exec(text);
  return m ? Number(m[0].replace(',', '.')) : undefined;
}

/** "37.2" → "37.2", 38 → "38", 38.456 → "38.5": at most one decimal, no trailing zero. */
export function fmt(n: number, decimals = 1): string {
  const f = 10 ** decimals;
  return String(Math.round(n * f) / f);
}

// ---------------------------------------------------------------- blood pressure

export interface BloodPressure {
  systolic: number;
  diastolic: number;
}

/**
 * "128/84", "128 / 84 mmHg", "BP 128/84 sitting" → systolic/diastolic: 2–3 digits each, never part
 * of a longer number ("1200/80" is unreadable, not 200/80), within the plausible ranges of
 * shared-contracts (systolic 50–300, diastolic 20–200, systolic above diastolic).
 */
export function parseBloodPressure(text: string): Reading<BloodPressure> {
  const raw = text.trim();
  if (!raw) return { status: 'missing' };
  const bp = checkBloodPressure(raw, { within: true });
  if (bp.ok) return { status: 'ok', value: { systolic: bp.systolic, diastolic: bp.diastolic } };
  if (bp.reason === 'format') return { status: 'unreadable', raw };
  return { status: 'implausible', raw, reason: bp.detail };
}

export type BpCategory = 'normal' | 'elevated' | 'stage 1 hypertension' | 'stage 2 hypertension' | 'hypertensive crisis';

/**
 * Whelton PK et al. 2017 ACC/AHA guideline for high blood pressure in adults. Hypertension
 * 2018;71:e13–e115 (table 6); "hypertensive crisis" (>180 and/or >120) from its section 11.2.
 * When systolic and diastolic fall in different categories the higher one wins.
 */
export function bpCategory(systolic: number, diastolic: number): BpCategory {
  if (systolic > 180 || diastolic > 120) return 'hypertensive crisis';
  if (systolic >= 140 || diastolic >= 90) return 'stage 2 hypertension';
  if (systolic >= 130 || diastolic >= 80) return 'stage 1 hypertension';
  if (systolic >= 120) return 'elevated';
  return 'normal';
}

// ---------------------------------------------------------------- temperature

export interface Temperature {
  celsius: number;
  /** set when the typed value was read as °F */
  fahrenheit?: number;
}

/*
 * Pragmatic plausibility limits after conversion (the declared temperature's limits, see
 * shared-contracts TEMPERATURE_RANGE_C): a recorded ward temperature outside them is far likelier a
 * typing error, such as SPEC §5's old default "9" (the form asks to confirm anything outside its
 * plausible range), and must not be scored as a real reading. It is shown and flagged instead.
 */
export const TEMPERATURE_PLAUSIBLE_C = TEMPERATURE_RANGE_C;

/**
 * °C unless the unit °F is typed right after the number ("98.6F", "98.6 °F", "100 fahrenheit").
 * A bare number is never guessed to be °F: "98.6" alone is an implausible °C value, shown as such.
 * Read by shared-contracts' readTemperature, as the record form reads it.
 */
export function parseTemperature(
  text: string,
  [lo, hi]: readonly [number, number] = TEMPERATURE_PLAUSIBLE_C,
): Reading<Temperature> {
  const raw = text.trim();
  if (!raw) return { status: 'missing' };
  // the whole text: a number and the unit typed right after it, if any ("98.6F", "37.8 °C", "38 deg c");
  // °F converted to the chart's 0.1 °C resolution, a °C value kept as typed
  const value = readTemperature(raw);
  if (!value) return { status: 'unreadable', raw };
  const { celsius, fahrenheit } = value;
  if (celsius < lo || celsius > hi) {
    const read = fahrenheit !== undefined ? `${fmt(fahrenheit)} °F read as ${fmt(celsius)} °C, ` : '';
    return { status: 'implausible', raw, reason: `${read}${celsius < lo ? `below ${lo}` : `above ${hi}`} °C` };
  }
  return { status: 'ok', value };
}

// ---------------------------------------------------------------- a number (pulse, respiratory rate, SpO2, …)

/* Outside its declared limits no value is physiologically possible: a typing error (the api's limits too). */
function plausibleNumber(value: number | null | undefined, [lo, hi]: readonly [number, number], unit: string): Reading<number> {
  if (value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value))) return { status: 'missing' };
  if (!Number.isFinite(value)) return { status: 'unreadable', raw: String(value) };
  if (value < lo) return { status: 'implausible', raw: String(value), reason: `below ${lo} ${unit}` };
  if (value > hi) return { status: 'implausible', raw: String(value), reason: `above ${hi} ${unit}` };
  return { status: 'ok', value };
}

/** A declared number vital sign's reading, within its declared limits. */
export function parseNumberVital(v: VitalSign, value: number | null | undefined): Reading<number> {
  if (v.kind !== 'number') throw new TypeError(`${v.key} is not a number vital sign`);
  return plausibleNumber(value, v.limits, v.units[0] ?? '');
}

export const parsePulse = (value: number | null | undefined) => parseNumberVital(vitalSign('pulse'), value);
export const parseRespiratoryRate = (value: number | null | undefined) => parseNumberVital(vitalSign('respiratoryRate'), value);
export const parseOxygenSaturation = (value: number | null | undefined) => parseNumberVital(vitalSign('oxygenSaturation'), value);

// ---------------------------------------------------------------- blood sugar

export interface BloodSugar {
  value: number;
  unit: GlucoseUnit;
  /** the value in mmol/L, for the thresholds (mg/dL ÷ 18.016, the molar mass of glucose / 10) */
  mmolL: number;
  /** a post-prandial value: the hypo- and hyperglycaemia alerts apply, the random-glucose range does not */
  postPrandial: boolean;
}

/** Why a glucose text was not interpreted (shown verbatim beside it). */
export type GlucoseNotInterpreted = 'unit unknown' | 'HbA1c, not a glucose' | 'not interpreted';

const MG_DL_PER_MMOL_L = 18.016;

/*
 * The unit must be written (mmol/L or mg/dL): never guessed from the size of the number. HbA1c
 * (mmol/mol or %) is not a glucose; a post-prandial label ("2hr PP", "post-prandial", "after
 * meal") is read as such. Anything else is "not interpreted", shown verbatim.
 */
export function parseBloodSugar(
  text: string,
): Reading<BloodSugar> | { status: 'not-interpreted'; raw: string; why: GlucoseNotInterpreted } {
  const raw = text.trim();
  if (!raw) return { status: 'missing' };
  if (/\b(?:hba1c|a1c|glycated|glycosylated)\b|mmol\s*\/\s*mol/i.test(raw))
    return { status: 'not-interpreted', raw, why: 'HbA1c, not a glucose' };
  // "-5 mmol/L" is not 5, "1e309 mg/dL" not 309: shown verbatim, never read as its last digits
  if (SIGNED_OR_EXPONENT.test(raw)) return { status: 'not-interpreted', raw, why: 'not interpreted' };
  const postPrandial = /\b(?:pp|ppbs|post[-\s]?prandial|after\s+(?:a\s+)?meals?)\b/i.test(raw);
  // the value is the number right before the unit, so "2hr PP 180 mg/dL" reads 180, not 2
  const m = /(\d+(?:[.,]\d+)?)\s*(mmol\s*\/\s*l|mg\s*\/\s*dl)\b/i.exec(raw);
  if (!m) {
    const bare = /^\d+(?:[.,]\d+)?$/.test(raw);
    return { status: 'not-interpreted', raw, why: bare ? 'unit unknown' : 'not interpreted' };
  }
  const value = Number(m[1].replace(',', '.'));
  const unit = glucoseUnitOf(m[2])!;
  const mmolL = unit === 'mmol/L' ? value : value / MG_DL_PER_MMOL_L;
  return { status: 'ok', value: { value, unit, mmolL, postPrandial } };
}

// ---------------------------------------------------------------- any declared vital sign

export type BloodSugarReading = ReturnType<typeof parseBloodSugar>;

/** A declared vital sign's reading, by its kind. */
export type VitalReading =
  | { kind: 'number'; reading: Reading<number> }
  | { kind: 'blood-pressure'; reading: Reading<BloodPressure> }
  | { kind: 'temperature'; reading: Reading<Temperature> }
  | { kind: 'glucose'; reading: BloodSugarReading }
  | { kind: 'choice'; reading: Reading<string | number | boolean> };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A declared vital sign's stored value, read by its kind (within its declared limits). */
export function readVitalSign(v: VitalSign, value: unknown): VitalReading {
  switch (v.kind) {
    case 'number':
      return { kind: 'number', reading: parseNumberVital(v, typeof value === 'number' ? value : null) };
    case 'blood-pressure':
      return { kind: 'blood-pressure', reading: parseBloodPressure(text(value)) };
    case 'temperature':
      return { kind: 'temperature', reading: parseTemperature(text(value), v.limits) };
    case 'glucose':
      return { kind: 'glucose', reading: parseBloodSugar(text(value)) };
    case 'choice':
      return {
        kind: 'choice',
        reading:
          typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
            ? value === ''
              ? { status: 'missing' }
              : { status: 'ok', value }
            : { status: 'missing' },
      };
  }
}

/**
 * The value one measure of a usable reading has (measuresOf: a blood pressure's systolic or
 * diastolic; a temperature in °C; a number; a choice's value), else null.
 */
export function measureValue(r: VitalReading, measure: string): number | string | boolean | null {
  if (r.reading.status !== 'ok') return null;
  switch (r.kind) {
    case 'blood-pressure':
      return (r.reading as { value: BloodPressure }).value[measure as keyof BloodPressure] ?? null;
    case 'temperature':
      return (r.reading as { value: Temperature }).value.celsius;
    case 'glucose':
      return (r.reading as { value: BloodSugar }).value.value;
    default:
      return (r.reading as { value: number | string | boolean }).value;
  }
}

// ---------------------------------------------------------------- adult reference ranges

export interface Range {
  low: number;
  high: number;
  unit: string;
}

/*
 * Adult reference ranges. Pulse 60–100 and respiratory rate 12–20 /min: the usual adult resting
 * ranges (12–20 is also the NEWS2 zero band); temperature 36.1–38.0 °C: the NEWS2 zero band (RCP
 * 2017); blood pressure 90–120/60–80 mmHg: below 90/60 hypotension, above 120/80 no longer ACC/AHA
 * "normal"; random plasma glucose 70–140 mg/dL (3.9–7.8 mmol/L): below 70 is ADA level 1
 * hypoglycaemia, above 140 the ADA definition of hyperglycaemia in hospital (Standards of Care,
 * "Diabetes care in the hospital").
 */
export const REFERENCE = {
  pulse: { low: 60, high: 100, unit: '/min' },
  respiratoryRate: { low: 12, high: 20, unit: '/min' },
  temperature: { low: 36.1, high: 38.0, unit: '°C' },
  systolic: { low: 90, high: 120, unit: 'mmHg' },
  diastolic: { low: 60, high: 80, unit: 'mmHg' },
  glucoseMgDl: { low: 70, high: 140, unit: 'mg/dL' },
  glucoseMmolL: { low: 3.9, high: 7.8, unit: 'mmol/L' },
} satisfies Record<string, Range>;

/*
 * SpO2 target ranges by NEWS2 scale. Scale 1: 96–100 %, the band that scores 0 (RCP 2017 Chart 1).
 * Scale 2: 88–92 %, the prescribed target for hypercapnic respiratory failure (RCP 2017 Chart 1;
 * BTS guideline for oxygen use in adults, O'Driscoll BR et al. Thorax 2017;72:i1–i90).
 */
export const SPO2_TARGET = {
  1: { low: 96, high: 100, unit: '%' },
  2: { low: 88, high: 92, unit: '%' },
} satisfies Record<1 | 2, Range>;

/** Inside the range inclusive is normal. */
export function flag(value: number, range: Range): Flag {
  if (value < range.low) return 'low';
  if (value > range.high) return 'high';
  return 'normal';
}

/** "60–100 /min"; temperature keeps its decimal ("36.1–38.0 °C"). */
export const rangeText = (r: Range, decimals?: number) =>
  decimals === undefined
    ? `${fmt(r.low)}–${fmt(r.high)} ${r.unit}`
    : `${r.low.toFixed(decimals)}–${r.high.toFixed(decimals)} ${r.unit}`;
