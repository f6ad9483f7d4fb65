import {
  DIASTOLIC_RANGE,
  SYSTOLIC_RANGE,
  VITAL_SIGNS,
  type ChoiceVitalSign,
  type News2ParameterName,
  type VitalSign,
} from './vital-sign-list';

/*
 * Reading the declared vital signs (vital-sign-list.ts), and the vital-sign text rules shared by
 * the api (the payload check, the clinical engine) and the record form, so that what the form lets
 * through, the api stores and the engine reads are the same. See api/CLINICAL.md (hazard log) for
 * why each rule exists.
 */

/** The declared vital signs, as the general type. */
export const vitalSigns = (): readonly VitalSign[] => VITAL_SIGNS;

/** The vital sign declared under `key` (throws when none is: a rule reading it must not run on nothing). */
export function vitalSign(key: string): VitalSign {
  const found = vitalSigns().find((v) => v.key === key);
  if (!found) throw new Error(`No vital sign is declared as ${key}`);
  return found;
}

/** The measures a vital sign is made of: its components (a blood pressure's two), else itself. */
export const measuresOf = (v: VitalSign): readonly { key: string; label: string; news2?: News2ParameterName }[] =>
  v.kind === 'blood-pressure' ? v.components : [v];

/** The vital sign (or component) NEWS2 scores as `parameter`: its label, and the unit its value is in. */
export function news2Measure(parameter: News2ParameterName): { label: string; unit: string } {
  for (const v of vitalSigns()) {
    if (v.news2 === parameter) return { label: v.label, unit: v.units[0] ?? '' };
    const part = v.kind === 'blood-pressure' ? v.components.find((c) => c.news2 === parameter) : undefined;
    if (part) return { label: part.label, unit: v.units[0] ?? '' };
  }
  throw new Error(`No vital sign is declared as the NEWS2 parameter ${parameter}`);
}

/** A choice's text for a stored value (its option's label), or undefined. */
export function choiceText(v: ChoiceVitalSign, value: unknown): string | undefined {
  const option = v.options.find((o) => (v.values ? v.values[o] : o) === value);
  return option === undefined ? undefined : (v.optionLabels?.[option] ?? option);
}

/** A label inside a sentence: "Respiratory rate" → "respiratory rate"; an acronym is kept ("SpO2 scale", "NEWS2"). */
export const labelInSentence = (label: string) =>
  /^[A-Z][a-z]*(?:\s|$)/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;

export type BloodPressureCheck =
  | { ok: true; systolic: number; diastolic: number }
  /** `detail`: what is wrong, after the vital sign's label (bloodPressureMessage) */
  | { ok: false; reason: 'format' | 'range'; detail: string };

/**
 * "128/84" or "128 / 84 mmHg" (the whole text) → the pair, checked against the plausible ranges
 * and systolic > diastolic. `within` reads the pair inside a longer note ("BP 128/84 sitting"),
 * still 2–3 digits each and never part of a longer number ("1200/80" is not 200/80).
 */
export function checkBloodPressure(text: string, { within = false } = {}): BloodPressureCheck {
  const pattern = within ? /(?<![\d.])(\d{2,3})\s*\/\s*(\d{2,3})(?![\d.])/ : /^\s*(\d{2,3})\s*\/\s*(\d{2,3})\s*(?:mm\s*hg)?\s*$/i;
  const m = pattern.exec(text);
  if (!m) return { ok: false, reason: 'format', detail: 'must be systolic/diastolic in mmHg, 2–3 digits each (e.g. 120/80)' };
  const systolic = Number(m[1]);
  const diastolic = Number(m[2]);
  const [sLo, sHi] = SYSTOLIC_RANGE;
  const [dLo, dHi] = DIASTOLIC_RANGE;
  if (systolic < sLo || systolic > sHi)
    return { ok: false, reason: 'range', detail: `systolic ${systolic} mmHg is outside ${sLo}–${sHi} mmHg` };
  if (diastolic < dLo || diastolic > dHi)
    return { ok: false, reason: 'range', detail: `diastolic ${diastolic} mmHg is outside ${dLo}–${dHi} mmHg` };
  if (systolic <= diastolic)
    return { ok: false, reason: 'range', detail: `systolic (${systolic}) must be higher than diastolic (${diastolic})` };
  return { ok: true, systolic, diastolic };
}

/** A refused blood pressure as a person reads it, under the vital sign's label ("Blood pressure: systolic 320 mmHg is outside …"). */
export const bloodPressureMessage = (label: string, check: { reason: 'format' | 'range'; detail: string }) =>
  check.reason === 'format' ? `${label} ${check.detail}` : `${label}: ${check.detail}`;

/**
 * A temperature text as the record reads it: °C unless the unit °F is typed right after the number
 * ("98.6F", "98.6 °F", "100 fahrenheit"); a bare number is never guessed to be °F. °F is converted
 * to 0.1 °C. Undefined unless the whole text is one number and an optional unit. The api's engine
 * (parseTemperature) and the record form's plausibility check read it alike.
 */
export function readTemperature(text: string): { celsius: number; fahrenheit?: number } | undefined {
  const m = /^([-+]?\d+(?:[.,]\d+)?)\s*(?:°|º|deg(?:rees?)?)?\s*(fahrenheit|celsius|centigrade|f|c)?\.?$/i.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1].replace(',', '.'));
  const unit = m[2]?.toLowerCase();
  if (unit !== 'f' && unit !== 'fahrenheit') return { celsius: n };
  return { celsius: Math.round((((n - 32) * 5) / 9) * 10) / 10, fahrenheit: n };
}

/*
 * An observation time ('YYYY-MM-DDTHH:MM', local) later than now is refused by the api and the form
 * (hazard H18): the vital-sign trend would plot a mistyped future day as the latest reading. Up to
 * OBSERVATION_CLOCK_SKEW_MS ahead is allowed for a device clock a little fast.
 */
export const OBSERVATION_CLOCK_SKEW_MS = 5 * 60_000;
export const OBSERVATION_IN_FUTURE_MESSAGE = 'Observation time cannot be in the future';

/** True when `observedAt` is later than `latest` (both 'YYYY-MM-DDTHH:MM', the same zone: they compare as text). */
export const observedAfter = (observedAt: string, latest: string): boolean =>
  observedAt.trim() !== '' && observedAt.trim() > latest;

/** The two glucose units the form offers; the stored text carries one of them. */
export const GLUCOSE_UNITS = ['mmol/L', 'mg/dL'] as const;
export type GlucoseUnit = (typeof GLUCOSE_UNITS)[number];

/** A glucose typed without its unit, under the vital sign's label. */
export const glucoseUnitMessage = (label: string) =>
  `${label} needs its unit: ${GLUCOSE_UNITS.join(' or ')} (e.g. 5.4 mmol/L or 97 mg/dL)`;

/*
 * A measurement is a plain positive number: a sign ("-5 mmol/L", "+38") or an exponent ("1e309
 * mg/dL") is refused, never read as its digits (a reader that skips the sign stores 5 for -5).
 */
export const SIGNED_OR_EXPONENT = /(?:^|[^\p{L}\p{N}.])[-+\u2212\u2013]\s*\d|\d\s*e\s*[-+\u2212]?\s*\d/iu;
export const signedOrExponentMessage = (label: string) =>
  `${label} must be a plain number without a sign or exponent (e.g. 5.4, not -5.4 or 1e3)`;

/** The unit a glucose text names, if it names one of the two (case and spacing free: "97 mg/dl", "5.4mmol/l"). */
export function glucoseUnitOf(text: string): GlucoseUnit | undefined {
  if (/mmol\s*\/\s*l\b/i.test(text)) return 'mmol/L';
  if (/mg\s*\/\s*dl\b/i.test(text)) return 'mg/dL';
  return undefined;
}
