import { z } from 'zod';
import { recordFields, type PlacedRecordField } from './record-descriptor';
import { MedicalRecordCreate, type ParsedMedicalRecordCreate } from './records';
import { GLUCOSE_UNIT_MESSAGE, glucoseUnitOf } from './vital-signs';

/*
 * The record form's own rules, on top of the creation schema (the api's). SPEC §5's minimums
 * (pulse 78, respiratory rate 16) are kept as WARNING thresholds, not limits: a lower value needs
 * the doctor's confirmation and is then recorded. The prefilled values (78, 16, "9") are only
 * where the form starts: a vital still at its prefill is stored as "not measured" unless the
 * doctor ticks that it was measured. A deliberate departure from SPEC §5 (README, api/CLINICAL.md).
 */

type GpeKey = keyof ParsedMedicalRecordCreate['examination']['generalPhysicalExamination'];

const GPE = recordFields.filter((f) => f.name.startsWith('examination.generalPhysicalExamination.'));
const keyOf = (f: PlacedRecordField) => f.readPath[f.readPath.length - 1] as GpeKey;

/** The measurements the form prefills: each needs "measured" ticked while it still shows the prefill. */
export const prefilledVitals = GPE.filter((f) => f.measurement && f.prefill !== undefined && f.kind !== 'select');
/** The measurements with a warning threshold: a value below it needs confirming. */
export const warnedVitals = GPE.filter((f) => f.warnBelow !== undefined);

const flags = (fields: PlacedRecordField[]) => z.object(Object.fromEntries(fields.map((f) => [keyOf(f), z.boolean()])));

/** Form-only ticks, never sent: which prefilled vitals were measured, which low values are confirmed. */
const VitalsCheck = z.object({ measured: flags(prefilledVitals), confirmedLow: flags(warnedVitals) });
export type VitalsCheck = { measured: Record<string, boolean>; confirmedLow: Record<string, boolean> };

export const vitalsCheckName = (kind: 'measured' | 'confirmedLow', f: PlacedRecordField) => `vitalsCheck.${kind}.${keyOf(f)}`;

/** True when the form still shows the field's prefill (by value: "78", 78 and " 78 " alike). */
export function atPrefill(f: PlacedRecordField, value: unknown): boolean {
  if (f.prefill === undefined) return false;
  if (typeof f.prefill === 'number') return value !== '' && value !== null && Number(value) === f.prefill;
  return String(value ?? '').trim() === f.prefill;
}

/** A value below the field's warning threshold, or undefined. */
export function belowWarning(f: PlacedRecordField, value: unknown): number | undefined {
  if (f.warnBelow === undefined || value === '' || value === null || value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n < f.warnBelow ? n : undefined;
}

export const confirmLowLabel = (f: PlacedRecordField, value: number) =>
  `Confirm ${f.label.toLowerCase()} of ${value} ${f.unit ?? ''}`.trim();
export const measuredLabel = (f: PlacedRecordField) =>
  `${f.label} ${String(f.prefill)}${f.unit && f.kind === 'number' ? ` ${f.unit}` : ''} was measured`;

export const RecordForm = MedicalRecordCreate.extend({ vitalsCheck: VitalsCheck }).superRefine((values, ctx) => {
  const gpe = values.examination.generalPhysicalExamination as Record<string, unknown>;
  const check = values.vitalsCheck as VitalsCheck;
  for (const f of warnedVitals) {
    const low = belowWarning(f, gpe[keyOf(f)]);
    if (low !== undefined && !check.confirmedLow[keyOf(f)])
      ctx.addIssue({
        code: 'custom',
        path: ['examination', 'generalPhysicalExamination', keyOf(f)],
        message: `${f.label} ${low} ${f.unit} is below ${f.warnBelow} ${f.unit}: tick “${confirmLowLabel(f, low)}” to record it`,
      });
  }
  const sugar = String(gpe.bloodSugarLevel ?? '').trim();
  // a bare number is refused here, never guessed (the api stores it; the engine says "unit unknown")
  if (sugar && !glucoseUnitOf(sugar))
    ctx.addIssue({
      code: 'custom',
      path: ['examination', 'generalPhysicalExamination', 'bloodSugarLevel'],
      message: GLUCOSE_UNIT_MESSAGE,
    });
});
export type RecordFormValues = z.input<typeof RecordForm>;
export type ParsedRecordForm = z.output<typeof RecordForm>;

/** Where the form starts: the descriptor's prefills, nothing ticked. */
export const recordFormCheckDefaults = (): VitalsCheck => ({
  measured: Object.fromEntries(prefilledVitals.map((f) => [keyOf(f), false])),
  confirmedLow: Object.fromEntries(warnedVitals.map((f) => [keyOf(f), false])),
});

/**
 * The payload the form sends: its ticks dropped, and every prefilled vital neither changed nor
 * ticked as measured sent as not measured (null, or '' for a text).
 */
export function toRecordPayload(values: ParsedRecordForm): ParsedMedicalRecordCreate {
  const { vitalsCheck, ...payload } = values;
  const gpe: Record<string, unknown> = { ...payload.examination.generalPhysicalExamination };
  for (const f of prefilledVitals) {
    const key = keyOf(f);
    if (atPrefill(f, gpe[key]) && !vitalsCheck.measured[key]) gpe[key] = f.kind === 'number' ? null : '';
  }
  return {
    ...payload,
    examination: {
      ...payload.examination,
      generalPhysicalExamination: gpe as ParsedMedicalRecordCreate['examination']['generalPhysicalExamination'],
    },
  };
}
