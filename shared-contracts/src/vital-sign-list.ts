import { z } from 'zod';

/*
 * THE VITAL SIGNS, declared once (VITAL_SIGNS), with their limits. The record descriptor (so the
 * payload schema, the form and the detail view), the api's clinical engine (readings, NEWS2
 * inputs, the summary), the FHIR Observations, the PDF and the trend chart all read them from
 * here. It imports nothing of this package, so a test may extend the list with a module mock (see
 * vital-sign-declaration.test.ts in api and remote-doctor) and see the new sign everywhere.
 */

/* Outside these no heart or breathing rate is physiologically possible: a typing error. Also the
   api's limits: a pulse of 44 or a rate of 9 must be recordable (bradycardia, opioid toxicity). */
export const PULSE_RANGE = [20, 300] as const;
export const RESPIRATORY_RATE_RANGE = [3, 80] as const;
/* A saturation below 20 % is not a reading a pulse oximeter reports (and not a survivable one). */
export const OXYGEN_SATURATION_RANGE = [20, 100] as const;

/*
 * Body size: past the extremes ever recorded (a surviving newborn of about 0.25 kg, an adult of
 * 635 kg; a height of 272 cm), a typing error. Wide, because a baby's weight and length are taken
 * here too.
 */
export const WEIGHT_RANGE_KG = [0.2, 650] as const;
export const HEIGHT_RANGE_CM = [20, 280] as const;

/*
 * Plausible blood pressure (mmHg): no published cut-off; wide enough to keep profound shock and
 * hypertensive emergencies, narrow enough to catch a slip such as "1200/80" or "12/80".
 */
export const SYSTOLIC_RANGE = [50, 300] as const;
export const DIASTOLIC_RANGE = [20, 200] as const;

/*
 * Temperature (°C, after converting °F): pragmatic limits, not physiological absolutes (survival
 * has been reported below 25 °C in extreme accidental hypothermia and just above 45 °C). A
 * recorded ward temperature outside 25–45 °C is far likelier a typing error, such as SPEC §5's old
 * default "9": it is stored as typed, shown and flagged, never scored.
 */
export const TEMPERATURE_RANGE_C = [25, 45] as const;

/** NEWS2's seven parameters (RCP 2017 Chart 1's order); the api's clinical module scores them. */
export const News2ParameterName = z.enum([
  'respirationRate',
  'oxygenSaturation',
  'supplementalOxygen',
  'systolicBP',
  'pulse',
  'consciousness',
  'temperature',
]);
export type News2ParameterName = z.infer<typeof News2ParameterName>;

/** A LOINC coding of a vital sign's FHIR Observation; with `unit`, only for a value recorded in that unit. */
export interface LoincCoding {
  code: string;
  /** LOINC's own display name (the Observation's text is the vital sign's label) */
  display: string;
  unit?: string;
}

/** A part of a vital sign measured with it (the systolic of a blood pressure). */
export interface VitalSignComponent {
  /** its key in the vital-sign trend (VitalSignPoint) and the api's reference ranges */
  key: string;
  label: string;
  loinc: LoincCoding;
  /** outside these a value is a typing error, never scored */
  limits: readonly [number, number];
  news2?: News2ParameterName;
}

interface DeclaredVitalSign {
  /** its key in the record's examination.generalPhysicalExamination: the payload, the stored record, the form */
  key: string;
  /**
   * Its one label: the form, the detail view, the summary, NEWS2's sub-scores, the FHIR
   * Observation's text, the PDF, the chart and the table.
   */
  label: string;
  /** the units it is recorded in, the first the one a bare number is in (none for a choice) */
  units: readonly string[];
  /** each unit's UCUM code, where it differs from the unit (FHIR) */
  ucum?: Readonly<Record<string, string>>;
  /** its FHIR Observation's codes (the first names its id); none: not exported as an Observation */
  loinc?: readonly LoincCoding[];
  /** its FHIR R4 profile (http://hl7.org/fhir/StructureDefinition/<profile>) and category (default vital-signs) */
  fhir?: { profile?: string; category?: 'vital-signs' | 'laboratory' };
  /**
   * Outside these no living patient's value: a typing error. A typed number outside them is
   * refused (400); a text (a temperature) is kept as typed but never scored. In the first unit.
   */
  limits?: readonly [number, number];
  /**
   * The plausible range: the form asks the doctor to confirm a value outside it (then records it),
   * and asks nothing inside it. Never a limit. In the first unit; the systolic for a blood pressure.
   */
  plausible?: readonly [number, number];
  /** the NEWS2 parameter it is (the scoring and its thresholds are the api's clinical module) */
  news2?: News2ParameterName;
  /**
   * false: measured at the examination but not one of a set of observations (a weight, a height):
   * a record with only this is no observation set, so it never stands in for the patient's last
   * vital signs (the worklist's score, api/CLINICAL.md). Absent: it is one.
   */
  observationSet?: false;
  /**
   * Drawn on the records page's trend chart and in its table: its measures (a blood pressure's
   * components, else itself) are VitalSignPoint's numbers, shaded by the api's reference ranges.
   */
  chart?: boolean;
  placeholder?: string;
  /** a line of guidance under the form's field */
  hint?: string;
}

/** A number (null: not measured), within its limits. */
export interface NumberVitalSign extends DeclaredVitalSign {
  kind: 'number';
  limits: readonly [number, number];
}
/** "systolic/diastolic" text; its components carry the limits. */
export interface BloodPressureVitalSign extends DeclaredVitalSign {
  kind: 'blood-pressure';
  max: number;
  components: readonly VitalSignComponent[];
}
/** A number typed as text with its unit: a temperature (°C, or °F said), a glucose (its unit said). */
export interface TextVitalSign extends DeclaredVitalSign {
  kind: 'temperature' | 'glucose';
  max: number;
}
/** One of a fixed list ('' or absent: not recorded). */
export interface ChoiceVitalSign extends DeclaredVitalSign {
  kind: 'choice';
  options: readonly [string, ...string[]];
  /** the stored value of each option where it differs (a number, a boolean) */
  values?: Readonly<Record<string, number | boolean>>;
  /** the text of each option, in the form and wherever the value is shown */
  optionLabels?: Readonly<Record<string, string>>;
  /** stored when nothing is chosen (else null) */
  fallback?: number | boolean;
  /** the option the form starts on */
  default?: string;
  /** the vital sign (by key) this one qualifies: shown only beside a value of it */
  qualifies?: string;
}
export type VitalSign = NumberVitalSign | BloodPressureVitalSign | TextVitalSign | ChoiceVitalSign;

/**
 * The record's vital signs in display order: the form's examination step, the detail view, the
 * summary, the FHIR Observations, the PDF and the trend chart all walk this list. Adding one is
 * one entry here (README "Add a vital sign").
 *
 * Plausible ranges lie beyond NEWS2's most abnormal bands (RCP 2017 chart 1: pulse ≤ 40 or ≥ 131,
 * RR ≤ 8 or ≥ 25, systolic ≤ 90 or ≥ 220, temperature ≤ 35.0 or ≥ 39.1 °C): outside them a
 * reading is far likelier a slip than real, so the form asks the doctor to confirm it; inside them
 * it asks nothing, as a warning on a normal pulse of 72 trains doctors to click through warnings.
 * The limits are wider still: a pulse of 25 (complete heart block) or a rate of 4 (opioid
 * toxicity) is confirmed once and recorded.
 */
export const VITAL_SIGNS = [
  {
    key: 'bloodPressure',
    label: 'Blood pressure',
    kind: 'blood-pressure',
    units: ['mmHg'],
    ucum: { mmHg: 'mm[Hg]' },
    max: 20,
    placeholder: '120/80',
    plausible: [60, 250],
    loinc: [{ code: '85354-9', display: 'Blood pressure panel with all children optional' }],
    fhir: { profile: 'bp' },
    components: [
      {
        key: 'systolic',
        label: 'Systolic blood pressure',
        loinc: { code: '8480-6', display: 'Systolic blood pressure' },
        limits: SYSTOLIC_RANGE,
        news2: 'systolicBP',
      },
      {
        key: 'diastolic',
        label: 'Diastolic blood pressure',
        loinc: { code: '8462-4', display: 'Diastolic blood pressure' },
        limits: DIASTOLIC_RANGE,
      },
    ],
    chart: true,
  },
  {
    key: 'pulse',
    label: 'Pulse',
    kind: 'number',
    units: ['/min'],
    limits: PULSE_RANGE,
    plausible: [30, 200],
    loinc: [{ code: '8867-4', display: 'Heart rate' }],
    fhir: { profile: 'heartrate' },
    news2: 'pulse',
    chart: true,
  },
  {
    key: 'temperature',
    label: 'Temperature',
    kind: 'temperature',
    units: ['°C', '°F'],
    ucum: { '°C': 'Cel', '°F': '[degF]' },
    max: 10,
    limits: TEMPERATURE_RANGE_C,
    plausible: [34, 42],
    hint: 'In °C; a value in °F needs its unit (e.g. 98.6 °F).',
    loinc: [{ code: '8310-5', display: 'Body temperature' }],
    fhir: { profile: 'bodytemp' },
    news2: 'temperature',
    chart: true,
  },
  {
    key: 'respiratoryRate',
    label: 'Respiratory rate',
    kind: 'number',
    units: ['/min'],
    limits: RESPIRATORY_RATE_RANGE,
    plausible: [6, 50],
    loinc: [{ code: '9279-1', display: 'Respiratory rate' }],
    fhir: { profile: 'resprate' },
    news2: 'respirationRate',
    chart: true,
  },
  {
    key: 'oxygenSaturation',
    label: 'SpO2',
    kind: 'number',
    units: ['%'],
    limits: OXYGEN_SATURATION_RANGE,
    hint: 'Oxygen saturation by pulse oximetry, in %.',
    // US Core 3.1 pulse oximetry: both codes
    loinc: [
      { code: '59408-5', display: 'Oxygen saturation in Arterial blood by Pulse oximetry' },
      { code: '2708-6', display: 'Oxygen saturation in Arterial blood' },
    ],
    fhir: { profile: 'oxygensat' },
    news2: 'oxygenSaturation',
    chart: true,
  },
  {
    key: 'spo2Scale',
    label: 'SpO2 scale',
    kind: 'choice',
    units: [],
    qualifies: 'oxygenSaturation',
    options: ['1', '2'],
    values: { '1': 1, '2': 2 },
    // RCP 2017: scale 1 unless a clinician has decided on scale 2 (a choice of chart, not a
    // reading: the form starts on it, and it means nothing without an SpO2)
    fallback: 1,
    default: '1',
    optionLabels: { '1': 'Scale 1', '2': 'Scale 2 (hypercapnic respiratory failure)' },
    hint: 'RCP 2017: use Scale 2 only for confirmed hypercapnic respiratory failure with a prescribed target of 88–92 %, on the decision of a competent clinician, recorded in the notes. Otherwise Scale 1.',
  },
  {
    key: 'supplementalOxygen',
    label: 'Air or oxygen',
    kind: 'choice',
    units: [],
    options: ['air', 'oxygen'],
    values: { air: false, oxygen: true },
    optionLabels: { air: 'Air', oxygen: 'Supplemental oxygen' },
    news2: 'supplementalOxygen',
  },
  {
    key: 'consciousness',
    label: 'Consciousness',
    kind: 'choice',
    units: [],
    options: ['A', 'C', 'V', 'P', 'U'],
    optionLabels: {
      A: 'A: alert',
      C: 'C: new confusion',
      V: 'V: responds to voice',
      P: 'P: responds to pain',
      U: 'U: unresponsive',
    },
    news2: 'consciousness',
  },
  {
    /** with its unit: "5.4 mmol/L" or "97 mg/dL" (the form refuses a bare number; the engine never guesses one) */
    key: 'bloodSugarLevel',
    label: 'Blood sugar level',
    kind: 'glucose',
    units: ['mmol/L', 'mg/dL'],
    max: 20,
    placeholder: '5.4 mmol/L',
    hint: 'With its unit: mmol/L or mg/dL.',
    // the code follows the unit it was written in: mass (mg/dL) or moles (mmol/L) per volume
    loinc: [
      { code: '2339-0', display: 'Glucose [Mass/volume] in Blood', unit: 'mg/dL' },
      { code: '15074-8', display: 'Glucose [Moles/volume] in Blood', unit: 'mmol/L' },
    ],
    fhir: { category: 'laboratory' },
  },
  {
    key: 'weight',
    label: 'Weight',
    kind: 'number',
    units: ['kg'],
    limits: WEIGHT_RANGE_KG,
    plausible: [2, 300],
    loinc: [{ code: '29463-7', display: 'Body weight' }],
    fhir: { profile: 'bodyweight' },
    observationSet: false,
  },
  {
    key: 'height',
    label: 'Height',
    kind: 'number',
    units: ['cm'],
    limits: HEIGHT_RANGE_CM,
    plausible: [40, 230],
    hint: 'Length for a baby.',
    loinc: [{ code: '8302-2', display: 'Body height' }],
    fhir: { profile: 'bodyheight' },
    observationSet: false,
  },
] as const satisfies readonly VitalSign[];
