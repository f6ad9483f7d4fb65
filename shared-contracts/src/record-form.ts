import { z } from 'zod';
import { recordFields, type PlacedRecordField } from './record-descriptor';
import { MedicalRecordCreate, type ParsedMedicalRecordCreate } from './records';
import type { VitalSign } from './vital-sign-list';
import {
  checkBloodPressure,
  glucoseUnitMessage,
  glucoseUnitOf,
  labelInSentence,
  OBSERVATION_CLOCK_SKEW_MS,
  OBSERVATION_IN_FUTURE_MESSAGE,
  observedAfter,
  readTemperature,
  vitalSigns,
} from './vital-signs';

/*
 * The record form's own rules, on top of the creation schema (the api's). The vitals step starts
 * empty and has no minimums: a vital left empty is sent as not measured (null, or '' for a text),
 * and only a value outside its plausible range (the descriptor's `confirmOutside`) needs the
 * doctor's confirmation, then is recorded. A deliberate departure from SPEC §5's minimums and
 * defaults (README, api/CLINICAL.md H1, H2).
 */

type GpeKey = keyof ParsedMedicalRecordCreate['examination']['generalPhysicalExamination'];

const GPE = recordFields.filter((f) => f.name.startsWith('examination.generalPhysicalExamination.'));
const keyOf = (f: PlacedRecordField) => f.readPath[f.readPath.length - 1] as GpeKey;

/** The measurements with a plausible range: a value outside it needs confirming. */
export const confirmableVitals = GPE.filter((f) => f.confirmOutside !== undefined);

/** Form-only ticks, never sent: which implausible values the doctor confirmed. */
const VitalsCheck = z.object({
  confirmed: z.object(Object.fromEntries(confirmableVitals.map((f) => [keyOf(f), z.boolean()]))),
});
export type VitalsCheck = { confirmed: Record<string, boolean> };

export const vitalsCheckName = (f: PlacedRecordField) => `vitalsCheck.confirmed.${keyOf(f)}`;

/** A vital as compared with its plausible range (°C, the systolic) and as the form names it. */
export interface VitalReading {
  compared: number;
  shown: string;
  /** what is compared, where it is not the whole value */
  part?: string;
}

/** How a text vital is read, by its kind; a number vital is its number. Unreadable text is refused elsewhere (or left to the engine). */
const TEXT_READERS: Partial<Record<VitalSign['kind'], (text: string) => VitalReading | undefined>> = {
  temperature: (text) => {
    const t = readTemperature(text);
    if (!t) return undefined;
    return {
      compared: t.celsius,
      shown: t.fahrenheit === undefined ? `${t.celsius} °C` : `${t.fahrenheit} °F (${t.celsius} °C)`,
    };
  },
  'blood-pressure': (text) => {
    const bp = checkBloodPressure(text);
    return bp.ok ? { compared: bp.systolic, shown: `${bp.systolic}/${bp.diastolic} mmHg`, part: 'systolic' } : undefined;
  },
};

function readVital(f: PlacedRecordField, value: unknown): VitalReading | undefined {
  if (value === '' || value === null || value === undefined) return undefined;
  if (f.kind !== 'number') {
    const kind = vitalSigns().find((v) => v.key === keyOf(f))?.kind;
    return kind && TEXT_READERS[kind]?.(String(value));
  }
  const n = Number(value);
  return Number.isFinite(n) ? { compared: n, shown: `${n} ${f.unit ?? ''}`.trim() } : undefined;
}

/** The reading when it lies outside the field's plausible range, else undefined (empty, unreadable or plausible). */
export function implausibleReading(f: PlacedRecordField, value: unknown): VitalReading | undefined {
  if (!f.confirmOutside) return undefined;
  const reading = readVital(f, value);
  const [lo, hi] = f.confirmOutside;
  return reading && (reading.compared < lo || reading.compared > hi) ? reading : undefined;
}

export const confirmLabel = (f: PlacedRecordField, reading: VitalReading) =>
  `Confirm ${labelInSentence(f.label)} of ${reading.shown}`;

export function implausibleMessage(f: PlacedRecordField, reading: VitalReading): string {
  const [lo, hi] = f.confirmOutside!;
  const range = `${reading.part ? `${reading.part} ` : ''}${lo}–${hi} ${f.unit ?? ''}`.trim();
  return `${f.label} ${reading.shown} is outside the plausible range (${range}): check it, then tick “${confirmLabel(f, reading)}” to record it`;
}

/** A local date and time as the datetime input reads it: 'YYYY-MM-DDTHH:MM' in this device's time zone. */
export function localDateTimeHere(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** The latest observation time the form accepts now: this device's clock plus the allowed skew (the api checks in the clinic's zone). */
export const latestObservationTime = (now = new Date()) => localDateTimeHere(new Date(now.getTime() + OBSERVATION_CLOCK_SKEW_MS));

export const RecordForm = MedicalRecordCreate.extend({ vitalsCheck: VitalsCheck }).superRefine((values, ctx) => {
  const gpe = values.examination.generalPhysicalExamination as Record<string, unknown>;
  const check = values.vitalsCheck as VitalsCheck;
  for (const f of confirmableVitals) {
    const reading = implausibleReading(f, gpe[keyOf(f)]);
    if (reading && !check.confirmed[keyOf(f)])
      ctx.addIssue({
        code: 'custom',
        path: ['examination', 'generalPhysicalExamination', keyOf(f)],
        message: implausibleMessage(f, reading),
      });
  }
  if (observedAfter(String(gpe.observedAt ?? ''), latestObservationTime()))
    ctx.addIssue({
      code: 'custom',
      path: ['examination', 'generalPhysicalExamination', 'observedAt'],
      message: OBSERVATION_IN_FUTURE_MESSAGE,
    });
  // a bare glucose number is refused here, never guessed (the api stores it; the engine says "unit unknown")
  for (const v of vitalSigns().filter((x) => x.kind === 'glucose')) {
    const sugar = String(gpe[v.key] ?? '').trim();
    if (sugar && !glucoseUnitOf(sugar))
      ctx.addIssue({
        code: 'custom',
        path: ['examination', 'generalPhysicalExamination', v.key],
        message: glucoseUnitMessage(v.label),
      });
  }
});
export type RecordFormValues = z.input<typeof RecordForm>;
export type ParsedRecordForm = z.output<typeof RecordForm>;

/** Where the form's ticks start: nothing confirmed. */
export const recordFormCheckDefaults = (): VitalsCheck => ({
  confirmed: Object.fromEntries(confirmableVitals.map((f) => [keyOf(f), false])),
});

/** The payload the form sends: the form's values without its ticks (an empty vital is already "not measured"). */
export function toRecordPayload(values: ParsedRecordForm): ParsedMedicalRecordCreate {
  const { vitalsCheck: _ticks, ...payload } = values;
  return payload;
}
