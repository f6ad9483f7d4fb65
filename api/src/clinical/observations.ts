import { measuresOf, vitalSigns, type MedicalRecord } from '@careloop/shared-contracts';
import { news2, type Consciousness, type News2Result, type News2Vitals, type Spo2Scale } from './news2';
import { bodyMassIndex } from './body-size';
import { measureValue, readVitalSign, type VitalReading } from './vitals';

/** Each kind's reading. */
type ReadingOf = { [R in VitalReading as R['kind']]: R['reading'] };

/*
 * The vital signs of one medical record, read once: each declared vital sign (shared-contracts
 * VITAL_SIGNS) parsed by its kind (with why it is not a number when it is not) and NEWS2 scored on
 * the plausible values only, each declared NEWS2 parameter from the vital sign that declares it.
 * The summary, the trend chart, the FHIR Observations and the doctor's worklist all read a record
 * through this, so they cannot disagree.
 */
export function recordObservations(r: MedicalRecord) {
  const g = r.examination.generalPhysicalExamination;
  const stored = g as Record<string, unknown>;
  const readings = new Map(vitalSigns().map((v) => [v.key, readVitalSign(v, stored[v.key])]));
  /** The reading of a vital sign a clinical rule names (throws when none is declared so: a rule must not run on nothing). */
  const of = <K extends VitalReading['kind']>(key: string, kind: K): ReadingOf[K] => {
    const found = readings.get(key);
    if (found?.kind !== kind) throw new Error(`The clinical rules read ${key} as a ${kind} vital sign: declare it so`);
    return found.reading as ReadingOf[K];
  };
  const bp = of('bloodPressure', 'blood-pressure');
  const pulse = of('pulse', 'number');
  const rr = of('respiratoryRate', 'number');
  const temp = of('temperature', 'temperature');
  const sugar = of('bloodSugarLevel', 'glucose');
  const spo2 = of('oxygenSaturation', 'number');
  const bmi = bodyMassIndex(of('weight', 'number'), of('height', 'number'));
  const scale: Spo2Scale = g.spo2Scale === 2 ? 2 : 1;
  const onOxygen = typeof g.supplementalOxygen === 'boolean' ? g.supplementalOxygen : null;
  const consciousness: Consciousness | null = g.consciousness ?? null;
  // each NEWS2 parameter from the vital sign (or the part of one) declared as it, usable values only
  const inputs: Record<string, unknown> = { spo2Scale: scale };
  for (const v of vitalSigns())
    for (const m of measuresOf(v)) if (m.news2) inputs[m.news2] = measureValue(readings.get(v.key)!, m.key);
  const score: News2Result = news2(inputs as News2Vitals);
  return { readings, bp, pulse, rr, temp, sugar, spo2, bmi, scale, onOxygen, consciousness, news2: score };
}
export type RecordObservations = ReturnType<typeof recordObservations>;
