import type { Reading } from './vitals';

/**
 * Body mass index: weight in kilograms over the square of height in metres, to one decimal
 * (WHO, Obesity: preventing and managing the global epidemic, Technical Report Series 894, 2000).
 * Only from a weight and a height of the same record, both usable: never from readings taken on
 * different days, never from a text that could not be read. The value alone: the adult
 * categories (under 18.5, 25 and over, 30 and over) do not apply to a child, whose BMI is read on
 * BMI-for-age centiles, nor in pregnancy — so no category is given here.
 */
export function bodyMassIndex(weightKg: Reading<number>, heightCm: Reading<number>): number | null {
  if (weightKg.status !== 'ok' || heightCm.status !== 'ok') return null;
  const metres = heightCm.value / 100;
  return Math.round((weightKg.value / (metres * metres)) * 10) / 10;
}

/** Its unit, as written and as UCUM. */
export const BMI_UNIT = { text: 'kg/m²', ucum: 'kg/m2' } as const;
