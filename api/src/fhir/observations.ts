import type { CodeableConcept, Coding, Observation, ObservationComponent, Quantity } from '@medplum/fhirtypes';
import { choiceText, measuresOf, vitalSign, vitalSigns, type LoincCoding, type VitalSign } from '@careloop/shared-contracts';
import type { PatientRows } from '../access';
import { BMI_UNIT, NEWS2_LABELS, NEWS2_PARAMETERS, recordObservations, type News2Parameter } from '../clinical';
import { instantOfWallTime } from '../clinical/age';
import { toMedicalRecord } from '../access';

/*
 * A record's measured vital signs as Observations in the FHIR R4 vital-signs profile shape
 * (http://hl7.org/fhir/R4/observation-vitalsigns.html; US Core 3.1 pulse oximetry for SpO2):
 * each declared vital sign with LOINC codes (shared-contracts VITAL_SIGNS: codes, UCUM units,
 * profile, category, its label as the text), in the declared order. Only readings
 * recordObservations calls `ok` become Observations: an unreadable or implausible text is never
 * exported as a number. Ids are `<record id>-<first LOINC code>` (NEWS2: `<record id>-news2`), so
 * each is stable.
 */

type RecordRow = PatientRows['records'][number];

export const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';

/** Body mass index, derived from a record's weight and height (FHIR R4 profile bmi). */
const BMI_LOINC: LoincCoding = { code: '39156-5', display: 'Body mass index (BMI) [Ratio]' };

/** Every LOINC code of the declared vital signs and their components, and BMI's (a FHIR search by code finds them). */
export const LOINC_CODES: readonly string[] = [
  ...vitalSigns().flatMap((v) => [
    ...(v.loinc ?? []).map((l) => l.code),
    ...(v.kind === 'blood-pressure' ? v.components.map((c) => c.loinc.code) : []),
  ]),
  BMI_LOINC.code,
];

const category = (code: 'vital-signs' | 'laboratory' | 'survey', display: string): CodeableConcept[] => [
  { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code, display }] },
];

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

const loinc = ({ code, display }: LoincCoding): Coding => ({ system: LOINC, code, display });
/** A value in one of a vital sign's units, with its UCUM code. */
const quantity = (v: VitalSign, value: number, unit = v.units[0]): Quantity => ({
  value,
  unit,
  system: UCUM,
  code: v.ucum?.[unit] ?? unit,
});

const CATEGORY_DISPLAY = { 'vital-signs': 'Vital Signs', laboratory: 'Laboratory' } as const;

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
  const out: Observation[] = [];

  // the record's air or oxygen, as recorded: a component of the SpO2 Observation (below)
  const airOrOxygen = vitalSigns().find((v) => v.news2 === 'supplementalOxygen');
  const onOxygenText = airOrOxygen?.kind === 'choice' ? choiceText(airOrOxygen, true) : undefined;

  // each declared vital sign with LOINC codes and a usable reading, in the declared order
  for (const v of vitalSigns()) {
    const read = o.readings.get(v.key)!;
    if (!v.loinc?.length || read.reading.status !== 'ok') continue;
    const observation = (codes: readonly LoincCoding[], text = v.label) => {
      const cat = v.fhir?.category ?? 'vital-signs';
      return base(codes[0].code, v.fhir?.profile ?? null, category(cat, CATEGORY_DISPLAY[cat]), {
        coding: codes.map(loinc),
        text,
      });
    };
    if (read.kind === 'number' && read.reading.status === 'ok') {
      out.push({
        ...observation(v.loinc),
        valueQuantity: quantity(v, read.reading.value),
        // Air or supplemental oxygen, as recorded: a yes/no with no flow or concentration, so
        // neither LOINC 3151-8 (inhaled oxygen flow rate) nor 3150-0 (inhaled oxygen
        // concentration), whose values would be numbers nobody measured, but a component of the
        // SpO2 coded by its text.
        ...(v.news2 === 'oxygenSaturation' && o.onOxygen !== null && onOxygenText
          ? { component: [{ code: { text: onOxygenText }, valueBoolean: o.onOxygen }] }
          : {}),
      });
    } else if (read.kind === 'temperature' && read.reading.status === 'ok') {
      const { celsius, fahrenheit } = read.reading.value;
      // as recorded: °F when it was written in °F
      out.push({
        ...observation(v.loinc),
        valueQuantity: fahrenheit !== undefined ? quantity(v, fahrenheit, '°F') : quantity(v, celsius),
      });
    } else if (read.kind === 'blood-pressure' && read.reading.status === 'ok' && v.kind === 'blood-pressure') {
      const value = read.reading.value;
      out.push({
        ...observation(v.loinc),
        component: v.components.map((c): ObservationComponent => ({
          code: { coding: [loinc(c.loinc)] },
          valueQuantity: quantity(v, value[c.key as keyof typeof value]),
        })),
      });
    } else if (read.kind === 'glucose' && read.reading.status === 'ok') {
      const { value, unit, postPrandial } = read.reading.value;
      // the codes of the unit it was written in (mass or moles per volume)
      const codes = v.loinc.filter((l) => !l.unit || l.unit === unit);
      if (codes.length)
        out.push({
          ...observation(codes, postPrandial ? `${v.label} (post-prandial)` : v.label),
          valueQuantity: quantity(v, value, unit),
        });
    }
  }
  // BMI: derived from this record's weight and height (clinical/body-size.ts), and says so; none from an impossible pair.
  if (o.bmi?.status === 'ok')
    out.push({
      ...base(BMI_LOINC.code, 'bmi', category('vital-signs', CATEGORY_DISPLAY['vital-signs']), {
        coding: [loinc(BMI_LOINC)],
        text: 'BMI',
      }),
      valueQuantity: { value: o.bmi.value, unit: BMI_UNIT.ucum, system: UCUM, code: BMI_UNIT.ucum },
      derivedFrom: ['weight', 'height'].map((key) => ({ reference: `Observation/${r.id}-${vitalSign(key).loinc![0].code}` })),
    });
  // NEWS2 (Royal College of Physicians 2017): no LOINC code is certain for it, so it is coded by
  // its text, with the RCP chart as the method; each of its seven parameters is a component (its
  // points, or not-performed). A partial score (fewer than seven parameters) keeps the sum of
  // what was scored as its value, and its interpretation says it is incomplete: the full score is
  // at least that, never read as the score.
  if (o.news2.subScores.length > 0) {
    const scored = new Map(o.news2.subScores.map((s) => [s.parameter, s.score]));
    // the reading of the vital sign declared as each parameter: one written but not usable is not "not performed"
    const readings: Partial<Record<News2Parameter, { status: string }>> = Object.fromEntries(
      vitalSigns().flatMap((v) => measuresOf(v).flatMap((m) => (m.news2 ? [[m.news2, o.readings.get(v.key)!.reading]] : []))),
    );
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
