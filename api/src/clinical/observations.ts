import type { MedicalRecord } from '@careloop/shared-contracts';
import { news2, type Consciousness, type News2Result, type Spo2Scale } from './news2';
import {
  parseBloodPressure,
  parseBloodSugar,
  parseOxygenSaturation,
  parsePulse,
  parseRespiratoryRate,
  parseTemperature,
} from './vitals';

/*
 * The vital signs of one medical record, read once: each reading parsed (with why it is not a
 * number when it is not) and NEWS2 scored on the plausible values only. The summary, the trend
 * chart and the doctor's worklist all read a record through this, so they cannot disagree.
 */
export function recordObservations(r: MedicalRecord) {
  const g = r.examination.generalPhysicalExamination;
  const bp = parseBloodPressure(g.bloodPressure ?? '');
  const pulse = parsePulse(g.pulse);
  const rr = parseRespiratoryRate(g.respiratoryRate);
  const temp = parseTemperature(g.temperature ?? '');
  const sugar = parseBloodSugar(g.bloodSugarLevel ?? '');
  const spo2 = parseOxygenSaturation(g.oxygenSaturation);
  const scale: Spo2Scale = g.spo2Scale === 2 ? 2 : 1;
  const onOxygen = typeof g.supplementalOxygen === 'boolean' ? g.supplementalOxygen : null;
  const consciousness: Consciousness | null = g.consciousness ?? null;
  const score: News2Result = news2({
    respirationRate: rr.status === 'ok' ? rr.value : null,
    oxygenSaturation: spo2.status === 'ok' ? spo2.value : null,
    spo2Scale: scale,
    supplementalOxygen: onOxygen,
    systolicBP: bp.status === 'ok' ? bp.value.systolic : null,
    pulse: pulse.status === 'ok' ? pulse.value : null,
    consciousness,
    temperature: temp.status === 'ok' ? temp.value.celsius : null,
  });
  return { bp, pulse, rr, temp, sugar, spo2, scale, onOxygen, consciousness, news2: score };
}
export type RecordObservations = ReturnType<typeof recordObservations>;
