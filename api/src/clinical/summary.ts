import {
  UNKNOWN_DATE,
  formatDate as formatCalendarDate,
  type Assessment,
  type AssessmentFinding,
  type MedicalRecord,
  type MedicationAlert,
} from '@careloop/shared-contracts';
import { assessRecord, distinctTexts } from './assessment';
import type { AllergyEntry } from './medication-safety';
import { normalise } from './vocabulary';
import { NEWS2_LABELS, type News2Result } from './news2';
import { recordObservations, type RecordObservations } from './observations';
import { BMI_UNIT } from './body-size';
import { bpCategory, flag, fmt, rangeText, REFERENCE, SPO2_TARGET, type Range, type VitalReading } from './vitals';
// The record's field labels are the record descriptor's; the vital signs and their labels, VITAL_SIGNS'.
import {
  choiceText,
  recordField,
  recordFields,
  recordSections,
  summaryLabelOf,
  valueIn,
  vitalSigns,
  type PlacedRecordField,
  type VitalSign,
} from '@careloop/shared-contracts';

/*
 * The deterministic decision-support summary of one medical record: a Markdown text (only "## "
 * headings, **bold** and line breaks, which is all the UI renders) of the record and its clinical
 * assessment (assessment.ts: every alert, with its acuity and source). Same inputs, same text:
 * nothing here reads the clock.
 */

export interface SummaryOptions {
  /** the patient's other prescriptions: their drugs are checked, their allergy notes added */
  prescriptions?: { prescribedDrug: string; allergies: string[] }[];
  /**
   * Every allergy note on file for the patient (all their records' allergy texts and their
   * prescriptions' allergy lists): the access layer's recordedAllergies, the same source the
   * create and prescribe paths check against.
   */
  allergiesOnFile?: string[];
  /**
   * Every allergy entry of the patient (the access layer's allergyEntriesFor: structured entries
   * and every unreviewed free-text note). When given, the alerts come from these alone, so a note a
   * doctor refuted stops alerting here too; without it, the notes above are read.
   */
  allergyEntries?: AllergyEntry[];
  /**
   * The record's assessment (the api passes the stored one: the summary shows it, never a second
   * computation); without it, it is computed here from the options above.
   */
  assessment?: Assessment;
}

export interface Summary {
  markdown: string;
  news2: News2Result;
  alerts: MedicationAlert[];
}

export const DISCLAIMER = 'Decision support only: verify against the full clinical picture.';

/**
 * User text made safe for one line: line breaks (all kinds) become spaces, runs of '*' shrink to one
 * so only our labels are bold, and leading '#' go, so the text can never start a heading.
 */
export function inline(text: string): string {
  return text
    .replace(/[\r\n\u0085\u2028\u2029\v\f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\*{2,}/g, '*')
    .trim()
    .replace(/^[#\s]+/, '');
}

const field = (label: string, text: string) => `**${label}:** ${inline(text)}`;
const quote = (text: string) => `“${inline(text)}”`;

function formatAge(age: MedicalRecord['biodata']['age']): string {
  if (!age) return 'Not recorded';
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (age.years > 0) return age.months > 0 ? `${unit(age.years, 'year')} ${unit(age.months, 'month')}` : unit(age.years, 'year');
  if (age.months > 0) return unit(age.months, 'month');
  return unit(age.days, 'day');
}

/**
 * "2025-03-04" or "2025-03-04T10:00:00.000Z" → "4 Mar 2025", the one date format; the day by text,
 * not by Date (no time-zone shift). '' stays '' ("Not recorded"); anything unreadable as written.
 */
function formatDate(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ]|$)/.exec(text.trim());
  const day = m ? formatCalendarDate(m[1]) : UNKNOWN_DATE;
  // a date that is no calendar day (2025-13-45) is shown as written, never as "unknown date"
  return day === UNKNOWN_DATE ? text : day;
}

// ------------------------------------------------------------------ sections

function patientSection(r: MedicalRecord): string[] {
  const b = r.biodata;
  const orNot = (s: string) => (inline(s) ? s : 'Not recorded');
  return [
    '## Patient',
    field('Name', orNot(b.name)),
    field('Age', formatAge(b.age)),
    field('Gender', orNot(b.gender)),
    field('Mode of admission', orNot(b.modeOfAdmission)),
    field('Date of admission', orNot(formatDate(b.dateOfAdmission))),
    field('Record', orNot(r.title)),
  ];
}

/** The text of a record's field, as stored ('' when the record does not have it). */
const textIn = (r: MedicalRecord, f: PlacedRecordField) => {
  const value = valueIn(r, f);
  return typeof value === 'string' ? value : '';
};

/** Each field given (in the descriptor's order) as a line under its summary label. */
const fieldLines = (r: MedicalRecord, fields: PlacedRecordField[]) =>
  nonEmpty(fields.map((f) => [summaryLabelOf(f), textIn(r, f)]));

const PRESENTING = recordFields.filter((f) => f.step === 'Presenting complaint');
const ALLERGIES = recordField('medicalHistory.allergies');
/** The history section's fields the summary does not show under a heading of their own (presenting complaint, allergies). */
const KEY_HISTORY = recordSections
  .find((s) => s.title === 'History')!
  .fields.filter((f) => !PRESENTING.some((p) => p.name === f.name) && f.name !== ALLERGIES.name);
const OCCUPATIONAL = recordField('medicalHistory.occupationalHistory');
const TREATMENT = recordSections.find((s) => s.title === 'Treatment')!.fields;

function presentingSection(r: MedicalRecord): string[] {
  const lines = fieldLines(r, PRESENTING);
  return ['## Presenting complaint', ...(lines.length ? lines : ['Not recorded.'])];
}

function nonEmpty(fields: [string, string | undefined][]): string[] {
  return fields.filter(([, text]) => inline(text ?? '')).map(([label, text]) => field(label, text!));
}

/** Every history field of the descriptor in its order; without an occupational history, the profile's occupation. */
function historySection(r: MedicalRecord): string[] {
  const lines = nonEmpty(
    KEY_HISTORY.map((f) =>
      f.name === OCCUPATIONAL.name && !inline(textIn(r, f))
        ? ['Occupation', r.biodata.occupation]
        : [summaryLabelOf(f), textIn(r, f)],
    ),
  );
  return ['## Key history', ...(lines.length ? lines : ['Not recorded.'])];
}

/**
 * A computed section: this record's allergy note and every other one on file for the patient.
 * Always shown: "not recorded" (status unknown) is not the same as "none".
 */
const NOTES_QUOTED = 5;

function allergySection(r: MedicalRecord, onFile: string[], entries: AllergyEntry[]): string[] {
  const here = inline(r.allergies ?? '');
  const others = onFile.filter((a) => normalise(a) !== normalise(here));
  // the allergy list as read: reaction, criticality and verification status kept
  const listed = entries.filter((e) => e.verificationStatus !== 'refuted' && e.clinicalStatus === 'active').map(entryText);
  // Every substance the notes name is in the allergy list below; the notes themselves are quoted up
  // to NOTES_QUOTED, then counted (the allergy list shows every one verbatim).
  const quoted = others.slice(0, NOTES_QUOTED).map(inline);
  if (others.length > NOTES_QUOTED) quoted.push(`and ${others.length - NOTES_QUOTED} more notes (each on the allergy list)`);
  const lines = [
    field(summaryLabelOf(ALLERGIES), here || 'Not recorded in this record.'),
    ...(others.length ? [field('On file (earlier records and prescriptions)', quoted.join('; '))] : []),
    ...(listed.length ? [field('Allergy list', distinctTexts(listed).join('; '))] : []),
  ];
  if (!here && !others.length && !listed.length) return ['## Allergies', field(summaryLabelOf(ALLERGIES), 'Not recorded.')];
  return ['## Allergies', ...lines];
}

/** "penicillin — anaphylaxis (severe); high criticality; confirmed" */
function entryText(e: AllergyEntry): string {
  const reactions = e.reactions.map((x) => (x.severity ? `${x.manifestation} (${x.severity})` : x.manifestation));
  return [
    `${inline(e.substance.text)}${reactions.length ? ` — ${reactions.map(inline).join(', ')}` : ''}`,
    e.type === 'intolerance' ? 'intolerance' : '',
    e.criticality === 'unable-to-assess' ? 'criticality not assessed' : `${e.criticality} criticality`,
    e.verificationStatus,
    e.review ? `to review: ${inline(e.review)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

const INVESTIGATIONS = recordSections.find((s) => s.title === 'Investigations')!.fields;
/** key in record.investigations → label, in the descriptor's order */
const INVESTIGATION_LABELS: Record<string, string> = Object.fromEntries(
  INVESTIGATIONS.map((f) => [f.readPath[f.readPath.length - 1], summaryLabelOf(f)]),
);

const humanise = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function investigationsSection(r: MedicalRecord): string[] {
  const known = Object.keys(INVESTIGATION_LABELS);
  // the contract's order first, any other key after in a fixed (sorted) order
  const keys = [
    ...known,
    ...Object.keys(r.investigations ?? {})
      .filter((k) => !known.includes(k))
      .sort(),
  ];
  const lines = nonEmpty(keys.map((k) => [INVESTIGATION_LABELS[k] ?? humanise(k), r.investigations?.[k]]));
  return ['## Investigations', ...(lines.length ? lines : ['None recorded.'])];
}

function treatmentSection(r: MedicalRecord, otherDrugs: string[]): string[] {
  const lines = fieldLines(r, TREATMENT);
  if (otherDrugs.length)
    lines.push(field(lines.length ? 'Other prescriptions' : 'Prescriptions', otherDrugs.map(inline).join('; ')));
  return ['## Treatment', ...(lines.length ? lines : ['None recorded.'])];
}

// ------------------------------------------------------------------ vital signs

interface VitalsView {
  lines: string[];
  news2: News2Result;
}

type AnyReading = VitalReading['reading'];

const NOT_SCORED_WHY = (reading: AnyReading): string | undefined => {
  switch (reading.status) {
    case 'missing':
      return 'not measured';
    case 'unreadable':
      return `${quote(reading.raw)}: not interpreted`;
    case 'not-interpreted':
      return `${quote(reading.raw)}: not interpreted (${reading.why})`;
    case 'implausible':
      return `implausible: ${quote(reading.raw)}, ${reading.reason}`;
    default:
      return undefined;
  }
};

/* The qSOFA systolic criterion (Seymour, JAMA 2016): a reading at or below it is never called "normal". */
const QSOFA_SYSTOLIC = 100;

/** The adult reference range of a measure, where the clinical module has one (vitals.ts REFERENCE). */
const referenceOf = (key: string): Range | undefined =>
  Object.hasOwn(REFERENCE, key) ? REFERENCE[key as keyof typeof REFERENCE] : undefined;

/**
 * Blood pressure: flags per component against 90–120/60–80, then the ACC/AHA 2017 category of this
 * ONE reading (a category is diagnosed on repeated readings, not named from one).
 */
function bloodPressureLine(label: string, unit: string, s: number, d: number): string {
  const fs = flag(s, REFERENCE.systolic);
  const fd = flag(d, REFERENCE.diastolic);
  let f = fs === fd ? fs : [fs !== 'normal' && `systolic ${fs}`, fd !== 'normal' && `diastolic ${fd}`].filter(Boolean).join(', ');
  const category = bpCategory(s, d);
  const low = fs === 'low' || fd === 'low';
  // never "normal" beside a criterion the same value meets
  const qsofa = s <= QSOFA_SYSTOLIC;
  if (qsofa && f === 'normal') f = `systolic ${fmt(s)} ${unit} is at or below ${QSOFA_SYSTOLIC} (a qSOFA criterion)`;
  const categoryText =
    (low || qsofa) && category === 'normal'
      ? `reading in the low${low ? ' (hypotension)' : '-normal'} range (one reading; confirm on repeat)`
      : `reading in the ${category} range (ACC/AHA 2017; one reading; confirm on repeat)`;
  return `**${label}:** ${fmt(s)}/${fmt(d)} ${unit} (reference ${fmt(REFERENCE.systolic.low)}–${fmt(REFERENCE.systolic.high)}/${fmt(REFERENCE.diastolic.low)}–${fmt(REFERENCE.diastolic.high)} ${unit}): ${f}; ${categoryText}`;
}

/** One vital sign's line, by its kind, under its declared label. */
function vitalLine(v: VitalSign, r: VitalReading, o: RecordObservations): string {
  const label = v.label;
  const unit = v.units[0] ?? '';
  // a NEWS2 parameter not usable is said to be not scored
  const notOk = (reading: AnyReading, scored = v.kind === 'blood-pressure' ? v.components.some((c) => c.news2) : !!v.news2) => {
    const tail = scored ? ' — not scored' : '';
    return reading.status === 'missing'
      ? field(label, `Not measured${tail}.`)
      : `**${label}:** ${capitalise(NOT_SCORED_WHY(reading)!)}${tail}.`;
  };
  switch (r.kind) {
    case 'blood-pressure':
      return r.reading.status === 'ok'
        ? bloodPressureLine(label, unit, r.reading.value.systolic, r.reading.value.diastolic)
        : notOk(r.reading);
    case 'number': {
      if (r.reading.status !== 'ok') return notOk(r.reading);
      const value = r.reading.value;
      // an SpO2 is read on its NEWS2 scale: scale 2's target is 88–92 % (RCP 2017 Chart 1)
      if (v.news2 === 'oxygenSaturation')
        return `**${label}:** ${fmt(value)} ${unit} (scale ${o.scale}${o.scale === 2 ? `, target ${rangeText(SPO2_TARGET[2])}` : ''})`;
      const range = referenceOf(v.key);
      return `**${label}:** ${fmt(value)} ${unit}${range ? ` (reference ${rangeText(range)}): ${flag(value, range)}` : ''}`;
    }
    case 'temperature': {
      if (r.reading.status !== 'ok') return notOk(r.reading);
      const { celsius, fahrenheit } = r.reading.value;
      const value = fahrenheit === undefined ? `${fmt(celsius)} °C` : `${fmt(fahrenheit)} °F read as ${fmt(celsius)} °C`;
      const range = referenceOf(v.key);
      return `**${label}:** ${value}${range ? ` (reference ${rangeText(range, 1)}): ${flag(celsius, range)}` : ''}`;
    }
    case 'glucose': {
      const sugar = r.reading;
      if (sugar.status === 'ok') {
        const { value, unit: written, postPrandial } = sugar.value;
        const range = written === 'mmol/L' ? REFERENCE.glucoseMmolL : REFERENCE.glucoseMgDl;
        return postPrandial
          ? `**${label}:** ${fmt(value)} ${written}, post-prandial (not compared with the random-glucose range)`
          : `**${label}:** ${fmt(value)} ${written} (random glucose reference ${rangeText(range)}): ${flag(value, range)}`;
      }
      if (sugar.status === 'not-interpreted') {
        const meter = /^(?:lo|low|hi|high)$/i.test(sugar.raw.trim());
        return meter
          ? `**${label}:** ${quote(sugar.raw)}: outside the meter's measuring range (see alerts).`
          : `**${label}:** ${NOT_SCORED_WHY(sugar)}; not flagged${sugar.why === 'unit unknown' ? ' — record the unit (mmol/L or mg/dL)' : ''}.`;
      }
      return notOk(sugar, false);
    }
    case 'choice':
      return field(
        label,
        r.reading.status === 'ok'
          ? (v.kind === 'choice' && choiceText(v, r.reading.value)) || String(r.reading.value)
          : 'Not recorded.',
      );
  }
}

/** The record's vital signs, one line per declared vital sign in its order. The alerts they raise are the assessment's. */
function vitalsSection(r: MedicalRecord, assessment: Assessment): VitalsView {
  const g = r.examination.generalPhysicalExamination;
  const o = recordObservations(r);
  const score = o.news2;

  const lines: string[] = ['## Vital signs'];
  if (inline(g.observedAt ?? '')) lines.push(field('Observation time', (g.observedAt ?? '').replace('T', ' ')));
  for (const v of vitalSigns()) {
    // a qualifier (the SpO2 scale) is said beside the reading it qualifies
    if (v.kind === 'choice' && v.qualifies) continue;
    lines.push(vitalLine(v, o.readings.get(v.key)!, o));
  }
  if (o.bmi?.status === 'ok') lines.push(`**BMI:** ${fmt(o.bmi.value)} ${BMI_UNIT.text} (from this record's weight and height)`);
  else if (o.bmi)
    lines.push(
      `**BMI:** not given — this record's weight and height make ${fmt(o.bmi.value)} ${BMI_UNIT.text}, which no person has: check both.`,
    );

  // NEWS2 on the plausible values only (recordObservations).
  const scored = score.subScores.map(
    ({ parameter, value, score: points }) => `${NEWS2_LABELS[parameter].label} ${value}: ${points}`,
  );
  const subScores = scored.length ? `Sub-scores: ${scored.join('; ')}.` : 'Sub-scores: no parameter could be scored.';
  const adultTier = assessment.news2?.applicable ?? true;
  if (score.complete) {
    lines.push(
      `**NEWS2: ${score.total}**`,
      subScores,
      ...(adultTier ? [`**Response (${score.band}, RCP 2017 Chart 4):** ${score.response}.`] : []),
    );
  } else {
    lines.push(
      `**NEWS2 incomplete: at least ${score.total}**`,
      subScores,
      `Missing: ${score.missing.map((p) => NEWS2_LABELS[p].label).join(', ')}.`,
      'No response tier: an incomplete score can only rise. Record the missing parameters to score NEWS2 (RCP 2017).',
    );
  }
  lines.push(...assessment.caveats);
  return { lines, news2: score };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

// ------------------------------------------------------------------ alerts

/** One alert line: what, the finding, and where the rule comes from. */
const alertLine = (f: AssessmentFinding) => `**${inline(f.title)}:** ${inline(f.detail)} (${inline(f.source)})`;

/** An acuity in words, as the banner, the summary, FHIR's RiskAssessment and the PDF say it. */
export const ACUITY_TEXT = { emergency: 'Emergency', urgent: 'Urgent', review: 'Review', none: 'No alert' } as const;

// ------------------------------------------------------------------ the summary

export function buildSummary(record: MedicalRecord, options: SummaryOptions = {}): Summary {
  const prescriptions = options.prescriptions ?? [];
  const onFile = distinctTexts([...(options.allergiesOnFile ?? []), ...prescriptions.flatMap((p) => p.allergies ?? [])]);
  const allergyNotes = distinctTexts([record.allergies ?? '', ...onFile]);
  const drugs = distinctTexts(prescriptions.map((p) => p.prescribedDrug ?? ''));
  const assessment =
    options.assessment ??
    assessRecord(record, {
      allergyEntries: options.allergyEntries,
      allergyNotes,
      otherDrugs: drugs,
      computedAt: new Date(0),
      contextVersion: 0,
    });
  const otherDrugs = drugs.filter((d) => normalise(d) !== normalise(record.treatment?.prescribedDrug ?? ''));

  const vitals = vitalsSection(record, assessment);
  const alertLines = assessment.findings.map(alertLine);
  const sections = [
    patientSection(record),
    presentingSection(record),
    historySection(record),
    allergySection(record, onFile, options.allergyEntries ?? []),
    vitals.lines,
    investigationsSection(record),
    treatmentSection(record, otherDrugs),
    [
      '## Alerts',
      ...(alertLines.length ? [`**${ACUITY_TEXT[assessment.acuity]}:** ${assessment.reasons.map(inline).join('; ')}.`] : []),
      ...(alertLines.length ? alertLines : ['No alerts.']),
    ],
    [DISCLAIMER],
  ];
  return {
    markdown: sections.map((s) => s.join('\n')).join('\n\n') + '\n',
    news2: vitals.news2,
    alerts: assessment.medicationAlerts,
  };
}
