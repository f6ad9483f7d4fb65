import type { CodeableConcept, Coding, Observation, Quantity } from '@medplum/fhirtypes';
import type { PatientRows } from '../access';
import { NEWS2_LABELS, NEWS2_PARAMETERS, recordObservations, type News2Parameter } from '../clinical';
import { instantOfWallTime } from '../clinical/age';
import { toMedicalRecord } from '../access';

/*
 * A record's measured vital signs as Observations in the FHIR R4 vital-signs profile shape
 * (http://hl7.org/fhir/R4/observation-vitalsigns.html; US Core 3.1 pulse oximetry for SpO2):
 * LOINC codes, UCUM units, category vital-signs. Only readings recordObservations calls `ok`
 * become Observations: an unreadable or implausible text is never exported as a number.
 * Ids are `<record id>-<LOINC code>` (NEWS2: `<record id>-news2`), so each is stable.
 */

type RecordRow = PatientRows['records'][number];

export const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';

export const LOINC_CODES = {
  heartRate: '8867-4',
  respiratoryRate: '9279-1',
  bodyTemperature: '8310-5',
  bloodPressure: '85354-9',
  systolic: '8480-6',
  diastolic: '8462-4',
  pulseOximetry: '59408-5',
  oxygenSaturation: '2708-6',
  glucoseMass: '2339-0',
  glucoseMoles: '15074-8',
} as const;

const category = (code: 'vital-signs' | 'laboratory' | 'survey', display: string): CodeableConcept[] => [
  { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code, display }] },
];

export const SUPPLEMENTAL_OXYGEN = 'Supplemental oxygen';
export const DATA_ABSENT_REASON = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';
const NOT_PERFORMED: CodeableConcept = {
  coding: [{ system: DATA_ABSENT_REASON, code: 'not-performed', display: 'Not Performed' }],
  text: 'Not measured',
};
/** A reading was written but is unreadable or implausible: measured, perhaps, but not usable (never "not performed"). */
const UNUSABLE: CodeableConcept = {
  coding: [{ system: DATA_ABSENT_REASON, code: 'error', display: 'Error' }],
  text: 'Recorded, but unreadable or implausible: not scored',
};

const loinc = (code: string, display: string): Coding => ({ system: LOINC, code, display });
const quantity = (value: number, unit: string, code = unit): Quantity => ({ value, unit, system: UCUM, code });

/**
 * A local clinic time (`YYYY-MM-DDThh:mm`, CLINIC_TIME_ZONE) as an instant: the zone's offset is
 * read at that moment (Intl), so summer time is right (a time in the spring gap moves forward by
 * the gap, one in the autumn overlap is the earlier instant: instantOfWallTime).
 */
export function clinicTimeToInstant(local: string, timeZone: string): string {
  const [date, time] = local.split('T');
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  return instantOfWallTime(Date.UTC(y, mo - 1, d, h, mi), timeZone).toISOString();
}

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** When the signs were measured: the observation time when recorded, else when the record was written. */
export function effectiveOf(r: RecordRow, timeZone: string): string {
  const observedAt = r.examination.generalPhysicalExamination.observedAt ?? '';
  return LOCAL_DATE_TIME.test(observedAt) ? clinicTimeToInstant(observedAt, timeZone) : r.createdAt.toISOString();
}

/** Every Observation of one record: the vital signs measured, the blood glucose as recorded, NEWS2. */
export function recordObservationResources(r: RecordRow, timeZone: string): Observation[] {
  const o = recordObservations(toMedicalRecord(r));
  const effectiveDateTime = effectiveOf(r, timeZone);
  const base = (suffix: string, profile: string | null, cat: CodeableConcept[], code: CodeableConcept): Observation => ({
    resourceType: 'Observation',
    id: `${r.id}-${suffix}`,
    ...(profile ? { meta: { profile: [`http://hl7.org/fhir/StructureDefinition/${profile}`] } } : {}),
    status: 'final',
    category: cat,
    code,
    subject: { reference: `Patient/${r.patientId}` },
    encounter: { reference: `Encounter/${r.id}` },
    effectiveDateTime,
    performer: [{ reference: `Practitioner/${r.doctorId}` }],
  });
  const vital = category('vital-signs', 'Vital Signs');
  const out: Observation[] = [];

  if (o.pulse.status === 'ok')
    out.push({
      ...base(LOINC_CODES.heartRate, 'heartrate', vital, {
        coding: [loinc(LOINC_CODES.heartRate, 'Heart rate')],
        text: 'Heart rate',
      }),
      valueQuantity: quantity(o.pulse.value, '/min'),
    });
  if (o.rr.status === 'ok')
    out.push({
      ...base(LOINC_CODES.respiratoryRate, 'resprate', vital, {
        coding: [loinc(LOINC_CODES.respiratoryRate, 'Respiratory rate')],
        text: 'Respiratory rate',
      }),
      valueQuantity: quantity(o.rr.value, '/min'),
    });
  if (o.temp.status === 'ok') {
    const { celsius, fahrenheit } = o.temp.value;
    out.push({
      ...base(LOINC_CODES.bodyTemperature, 'bodytemp', vital, {
        coding: [loinc(LOINC_CODES.bodyTemperature, 'Body temperature')],
        text: 'Body temperature',
      }),
      // as recorded: °F when it was written in °F
      valueQuantity: fahrenheit !== undefined ? quantity(fahrenheit, '°F', '[degF]') : quantity(celsius, '°C', 'Cel'),
    });
  }
  if (o.bp.status === 'ok')
    out.push({
      ...base(LOINC_CODES.bloodPressure, 'bp', vital, {
        coding: [loinc(LOINC_CODES.bloodPressure, 'Blood pressure panel with all children optional')],
        text: 'Blood pressure',
      }),
      component: [
        {
          code: { coding: [loinc(LOINC_CODES.systolic, 'Systolic blood pressure')] },
          valueQuantity: quantity(o.bp.value.systolic, 'mmHg', 'mm[Hg]'),
        },
        {
          code: { coding: [loinc(LOINC_CODES.diastolic, 'Diastolic blood pressure')] },
          valueQuantity: quantity(o.bp.value.diastolic, 'mmHg', 'mm[Hg]'),
        },
      ],
    });
  if (o.spo2.status === 'ok')
    out.push({
      ...base(LOINC_CODES.pulseOximetry, 'oxygensat', vital, {
        coding: [
          loinc(LOINC_CODES.pulseOximetry, 'Oxygen saturation in Arterial blood by Pulse oximetry'),
          loinc(LOINC_CODES.oxygenSaturation, 'Oxygen saturation in Arterial blood'),
        ],
        text: 'SpO2',
      }),
      valueQuantity: quantity(o.spo2.value, '%'),
      // Air or supplemental oxygen, as recorded: a yes/no with no flow or concentration, so neither
      // LOINC 3151-8 (inhaled oxygen flow rate) nor 3150-0 (inhaled oxygen concentration), whose
      // values would be numbers nobody measured, but a component coded by its text.
      ...(o.onOxygen !== null ? { component: [{ code: { text: SUPPLEMENTAL_OXYGEN }, valueBoolean: o.onOxygen }] } : {}),
    });
  if (o.sugar.status === 'ok') {
    const { value, unit, postPrandial } = o.sugar.value;
    // the code follows the unit it was written in: mass (mg/dL) or moles (mmol/L) per volume
    const code = unit === 'mg/dL' ? LOINC_CODES.glucoseMass : LOINC_CODES.glucoseMoles;
    const display = unit === 'mg/dL' ? 'Glucose [Mass/volume] in Blood' : 'Glucose [Moles/volume] in Blood';
    out.push({
      ...base(code, null, category('laboratory', 'Laboratory'), {
        coding: [loinc(code, display)],
        text: postPrandial ? 'Blood glucose (post-prandial)' : 'Blood glucose',
      }),
      valueQuantity: quantity(value, unit),
    });
  }
  // NEWS2 (Royal College of Physicians 2017): no LOINC code is certain for it, so it is coded by
  // its text, with the RCP chart as the method; each of its seven parameters is a component (its
  // points, or not-performed). A partial score (fewer than seven parameters) keeps the sum of
  // what was scored as its value, and its interpretation says it is incomplete: the full score is
  // at least that, never read as the score.
  if (o.news2.subScores.length > 0) {
    const scored = new Map(o.news2.subScores.map((s) => [s.parameter, s.score]));
    // the parsed reading of each numeric parameter: one written but not usable is not "not performed"
    const readings: Partial<Record<News2Parameter, { status: string }>> = {
      respirationRate: o.rr,
      oxygenSaturation: o.spo2,
      systolicBP: o.bp,
      pulse: o.pulse,
      temperature: o.temp,
    };
    const missing = o.news2.complete ? [] : o.news2.missing.map((m) => NEWS2_LABELS[m].label);
    out.push({
      ...base('news2', null, category('survey', 'Survey'), { text: 'NEWS2 score' }),
      method: { text: 'Royal College of Physicians. National Early Warning Score (NEWS) 2, 2017' },
      valueInteger: o.news2.total,
      ...(missing.length
        ? {
            interpretation: [
              { text: `Incomplete: the full score is at least ${o.news2.total}; not measured: ${missing.join(', ')}` },
            ],
          }
        : {}),
      component: NEWS2_PARAMETERS.map((parameter) => {
        const points = scored.get(parameter);
        return {
          code: { text: `${NEWS2_LABELS[parameter].label} (NEWS2 points)` },
          ...(points !== undefined
            ? { valueInteger: points }
            : { dataAbsentReason: (readings[parameter]?.status ?? 'missing') === 'missing' ? NOT_PERFORMED : UNUSABLE }),
        };
      }),
    });
  }
  return out;
}
