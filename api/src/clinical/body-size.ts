import type { Reading } from './vitals';

/**
 * Body mass index: weight in kilograms over the square of height in metres, to one decimal
 * (WHO, Obesity: preventing and managing the global epidemic, Technical Report Series 894, 2000).
 * Only from a weight and a height of the same record, both usable: never from readings taken on
 * different days, never from a text that could not be read. The value alone: the adult
 * categories (under 18.5, 25 and over, 30 and over) do not apply to a child, whose BMI is read on
 * BMI-for-age centiles, nor in pregnancy — so no category is given here.
 */
export type BodyMassIndex = { status: 'ok'; value: number } | { status: 'implausible'; value: number } | null;

/*
 * A weight and a height each within their limits can still be a pair no person has (70 kg at
 * 25 cm: a BMI of 1,120) — one of them mistyped. Past the extremes recorded (about 7 in starvation
 * and in preterm babies; about 190 at the heaviest recorded weight), the BMI is not given as a
 * value: the summary says why, and FHIR carries none.
 */
export const BMI_PLAUSIBLE = [4, 250] as const;

export function bodyMassIndex(weightKg: Reading<number>, heightCm: Reading<number>): BodyMassIndex {
  if (weightKg.status !== 'ok' || heightCm.status !== 'ok') return null;
  const metres = heightCm.value / 100;
  const value = Math.round((weightKg.value / (metres * metres)) * 10) / 10;
  return { status: value >= BMI_PLAUSIBLE[0] && value <= BMI_PLAUSIBLE[1] ? 'ok' : 'implausible', value };
}

/** Its unit, as written and as UCUM. */
export const BMI_UNIT = { text: 'kg/m²', ucum: 'kg/m2' } as const;
