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

const round1 = (n: number) => Math.round(n * 10) / 10;

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

/*
 * Outside these a number is a typing error rather than a pressure (no published cut-off: chosen
 * wide enough to keep profound shock and severe hypertensive emergencies).
 */
const SYSTOLIC_PLAUSIBLE = [40, 300] as const;
const DIASTOLIC_PLAUSIBLE = [10, 200] as const;

/** "128/84", "128 / 84 mmHg", "BP 128/84 sitting" → systolic/diastolic. */
export function parseBloodPressure(text: string): Reading<BloodPressure> {
  const raw = text.trim();
  if (!raw) return { status: 'missing' };
  const m = /(\d{1,3}(?:\.\d+)?)\s*\/\s*(\d{1,3}(?:\.\d+)?)/.exec(raw);
  if (!m) return { status: 'unreadable', raw };
  const systolic = Number(m[1]);
  const diastolic = Number(m[2]);
  if (systolic < SYSTOLIC_PLAUSIBLE[0] || systolic > SYSTOLIC_PLAUSIBLE[1]) {
    return {
      status: 'implausible',
      raw,
      reason: `systolic ${fmt(systolic)} mmHg is outside ${SYSTOLIC_PLAUSIBLE[0]}–${SYSTOLIC_PLAUSIBLE[1]} mmHg`,
    };
  }
  if (diastolic < DIASTOLIC_PLAUSIBLE[0] || diastolic > DIASTOLIC_PLAUSIBLE[1]) {
    return {
      status: 'implausible',
      raw,
      reason: `diastolic ${fmt(diastolic)} mmHg is outside ${DIASTOLIC_PLAUSIBLE[0]}–${DIASTOLIC_PLAUSIBLE[1]} mmHg`,
    };
  }
  if (diastolic >= systolic) return { status: 'implausible', raw, reason: 'the diastolic is not below the systolic' };
  return { status: 'ok', value: { systolic, diastolic } };
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
 * Pragmatic plausibility limits after conversion, not physiological absolutes (survival has been
 * reported below 25 °C in extreme accidental hypothermia and just above 45 °C): a recorded ward
 * temperature outside 25–45 °C is far likelier a typing error, such as the record form's default
 * "9", and must not be scored as a real reading. It is shown and flagged instead.
 */
export const TEMPERATURE_PLAUSIBLE_C = [25, 45] as const;

/** Above this a bare number is taken to be °F: no living patient is at 45 °C, none at ≤ 45 °F. */
const FAHRENHEIT_ABOVE = 45;

export function parseTemperature(text: string): Reading<Temperature> {
  const raw = text.trim();
  if (!raw) return { status: 'missing' };
  // the first number and the unit typed right after it, if any ("98.6F", "37.8 °C", "38 deg c")
  const m = /([-+]?\d+(?:[.,]\d+)?)\s*(?:°|º|deg(?:rees?)?)?\s*(fahrenheit|celsius|centigrade|f|c)?(?![a-z])/i.exec(raw);
  if (!m) return { status: 'unreadable', raw };
  const n = Number(m[1].replace(',', '.'));
  const unit = m[2]?.toLowerCase();
  const isF = unit === 'f' || unit === 'fahrenheit' || (unit === undefined && n > FAHRENHEIT_ABOVE);
  // °F converted to the chart's 0.1 °C resolution; a °C value is kept as typed
  const celsius = isF ? round1(((n - 32) * 5) / 9) : n;
  const [lo, hi] = TEMPERATURE_PLAUSIBLE_C;
  if (celsius < lo || celsius > hi) {
    const read = isF ? `${fmt(n)} °F read as ${fmt(celsius)} °C, ` : '';
    return { status: 'implausible', raw, reason: `${read}${celsius < lo ? `below ${lo}` : `above ${hi}`} °C` };
  }
  return { status: 'ok', value: isF ? { celsius, fahrenheit: n } : { celsius } };
}

// ---------------------------------------------------------------- pulse, respiratory rate

/* Outside these no heart or breathing rate is physiologically possible: a typing error. */
export const PULSE_PLAUSIBLE = [20, 300] as const;
export const RESPIRATORY_RATE_PLAUSIBLE = [3, 80] as const;

function plausibleNumber(value: number | null | undefined, [lo, hi]: readonly [number, number], unit: string): Reading<number> {
  if (value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value))) return { status: 'missing' };
  if (!Number.isFinite(value)) return { status: 'unreadable', raw: String(value) };
  if (value < lo) return { status: 'implausible', raw: String(value), reason: `below ${lo} ${unit}` };
  if (value > hi) return { status: 'implausible', raw: String(value), reason: `above ${hi} ${unit}` };
  return { status: 'ok', value };
}

export const parsePulse = (value: number | null | undefined) => plausibleNumber(value, PULSE_PLAUSIBLE, '/min');
export const parseRespiratoryRate = (value: number | null | undefined) =>
  plausibleNumber(value, RESPIRATORY_RATE_PLAUSIBLE, '/min');

// ---------------------------------------------------------------- blood sugar

export interface BloodSugar {
  value: number;
  unit: 'mg/dL' | 'mmol/L';
}

/*
 * mg/dL unless the text says mmol. A bare number below 30 is neither: as mg/dL it would be a
 * hypoglycaemic emergency, as mmol/L an ordinary reading, so it is reported "unit unclear" and not
 * flagged either way rather than guessed.
 */
const BARE_NUMBER_UNIT_UNCLEAR_BELOW = 30;

export function parseBloodSugar(text: string): Reading<BloodSugar> & { unitUnclear?: boolean } {
  const raw = text.trim();
  if (!raw) return { status: 'missing' };
  const n = firstNumber(raw);
  if (n === undefined || n < 0) return { status: 'unreadable', raw };
  if (/mmol/i.test(raw)) return { status: 'ok', value: { value: n, unit: 'mmol/L' } };
  if (!/mg/i.test(raw) && n < BARE_NUMBER_UNIT_UNCLEAR_BELOW) return { status: 'unreadable', raw, unitUnclear: true };
  return { status: 'ok', value: { value: n, unit: 'mg/dL' } };
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
