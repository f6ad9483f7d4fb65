import type { DrugAllergyAlert, MedicalRecord } from 'shared-contracts';
import { drugAllergyAlerts, normalise } from './drug-allergy';
import {
  NEWS2_LABELS,
  NEWS2_MAX_UNSCORED_POINTS,
  NEWS2_NOT_IN_RECORD,
  news2,
  type News2Parameter,
  type News2Result,
} from './news2';
import {
  bpCategory,
  flag,
  fmt,
  parseBloodPressure,
  parseBloodSugar,
  parsePulse,
  parseRespiratoryRate,
  parseTemperature,
  rangeText,
  REFERENCE,
  type Reading,
} from './vitals';
// The record's field labels are the record descriptor's.
import { recordField, recordSections, summaryLabelOf, type RecordFieldName } from 'shared-contracts';

/*
 * The deterministic decision-support summary of one medical record: a Markdown text (only "## "
 * headings, **bold** and line breaks, which is all the UI renders), the NEWS2 result and the
 * drug–allergy alerts. Same record in, same text out: nothing here reads the clock.
 */

export interface SummaryOptions {
  /** the patient's other prescriptions: their drugs are checked, their allergy notes added */
  prescriptions?: { prescribedDrug: string; allergies: string[] }[];
}

export interface Summary {
  markdown: string;
  news2: News2Result;
  alerts: DrugAllergyAlert[];
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
/** The summary's label of one of the record's fields. */
const labelOf = (name: RecordFieldName) => summaryLabelOf(recordField(name));
const quote = (text: string) => `“${inline(text)}”`;

function formatAge(age: MedicalRecord['biodata']['age']): string {
  if (!age) return 'Not recorded';
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (age.years > 0) return age.months > 0 ? `${unit(age.years, 'year')} ${unit(age.months, 'month')}` : unit(age.years, 'year');
  if (age.months > 0) return unit(age.months, 'month');
  return unit(age.days, 'day');
}

/** "2025-03-04T10:00:00.000Z" → "2025-03-04" (by text, not by Date: no time-zone shift). */
function formatDate(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ]|$)/.exec(text.trim());
  return m ? m[1] : text;
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

function presentingSection(r: MedicalRecord): string[] {
  const lines = nonEmpty([
    [labelOf('medicalHistory.historyOfPresentingComplaints'), r.historyOfPresentingComplaints],
    [labelOf('medicalHistory.historyOfPresentingIllness'), r.historyOfPresentingIllness],
  ]);
  return ['## Presenting complaint', ...(lines.length ? lines : ['Not recorded.'])];
}

function nonEmpty(fields: [string, string | undefined][]): string[] {
  return fields.filter(([, text]) => inline(text ?? '')).map(([label, text]) => field(label, text!));
}

function historySection(r: MedicalRecord): string[] {
  // Allergies always shown: "not recorded" (status unknown) is not the same as "none".
  const allergies = inline(r.allergies) ? [] : [field(labelOf('medicalHistory.allergies'), 'Not recorded.')];
  const lines = [
    ...nonEmpty([
      [labelOf('medicalHistory.pastMedicalHistory'), r.pastMedicalHistory],
      [labelOf('medicalHistory.pastSurgicalHistory'), r.pastSurgicalHistory],
      [labelOf('medicalHistory.drugHistory'), r.drugHistory],
      [labelOf('medicalHistory.allergies'), r.allergies],
    ]),
    ...allergies,
    ...nonEmpty([
      [labelOf('medicalHistory.familyHistory'), r.familyHistory],
      [labelOf('medicalHistory.socioeconomicHistory'), r.socioeconomicHistory],
      inline(r.occupationalHistory)
        ? [labelOf('medicalHistory.occupationalHistory'), r.occupationalHistory]
        : ['Occupation', r.biodata.occupation],
      [labelOf('medicalHistory.gynecologicalHistory'), r.gynecologicalHistory],
      [labelOf('medicalHistory.travelHistory'), r.travelHistory],
    ]),
  ];
  return ['## Key history', ...lines];
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
  const t = r.treatment;
  const lines = nonEmpty([
    [labelOf('treatment.prescribedDrug'), t.prescribedDrug],
    [labelOf('treatment.dosage'), t.dosage],
    [labelOf('treatment.administrationRoute'), t.administrationRoute],
    [labelOf('treatment.dosageFrequency'), t.dosageFrequency],
  ]);
  if (otherDrugs.length)
    lines.push(field(lines.length ? 'Other prescriptions' : 'Prescriptions', otherDrugs.map(inline).join('; ')));
  return ['## Treatment', ...(lines.length ? lines : ['None recorded.'])];
}

// ------------------------------------------------------------------ vital signs

interface VitalsView {
  lines: string[];
  news2: News2Result;
  /** alert lines about the vital signs (implausible or unreadable values, NEWS2, crisis) */
  alerts: string[];
}

const NOT_SCORED_WHY = (reading: Reading<unknown>): string | undefined => {
  switch (reading.status) {
    case 'missing':
      return 'not recorded';
    case 'unreadable':
      return `could not be read: ${quote(reading.raw)}`;
    case 'implausible':
      return `implausible: ${quote(reading.raw)}, ${reading.reason}`;
    default:
      return undefined;
  }
};

function vitalsSection(r: MedicalRecord): VitalsView {
  const g = r.examination.generalPhysicalExamination;
  const bp = parseBloodPressure(g.bloodPressure ?? '');
  const pulse = parsePulse(g.pulse);
  const rr = parseRespiratoryRate(g.respiratoryRate);
  const temp = parseTemperature(g.temperature ?? '');
  const sugar = parseBloodSugar(g.bloodSugarLevel ?? '');

  const lines: string[] = ['## Vital signs'];
  const alerts: string[] = [];
  const notOk = (label: string, reading: Reading<unknown>, scored = true) => {
    const why = NOT_SCORED_WHY(reading)!;
    const tail = scored ? ' — not scored' : '';
    lines.push(reading.status === 'missing' ? field(label, `Not recorded${tail}.`) : `**${label}:** ${capitalise(why)}${tail}.`);
    if (reading.status === 'implausible')
      alerts.push(
        `**Implausible value:** ${label.toLowerCase()} ${quote(reading.raw)} (${reading.reason})${scored ? ', not scored' : ''}: re-measure and correct the record.`,
      );
    if (reading.status === 'unreadable')
      alerts.push(
        `**Unreadable value:** ${label.toLowerCase()} ${quote(reading.raw)}${scored ? ', not scored' : ''}: re-measure and correct the record.`,
      );
  };

  // Blood pressure: flags per component against 90–120/60–80, then the ACC/AHA 2017 category.
  if (bp.status === 'ok') {
    const { systolic: s, diastolic: d } = bp.value;
    const fs = flag(s, REFERENCE.systolic);
    const fd = flag(d, REFERENCE.diastolic);
    const f =
      fs === fd ? fs : [fs !== 'normal' && `systolic ${fs}`, fd !== 'normal' && `diastolic ${fd}`].filter(Boolean).join(', ');
    const category = bpCategory(s, d);
    const low = fs === 'low' || fd === 'low';
    const categoryText =
      low && category === 'normal'
        ? 'ACC/AHA 2017 category: none (low blood pressure, hypotension range)'
        : `ACC/AHA 2017 category: ${category}`;
    lines.push(
      `**Blood pressure:** ${fmt(s)}/${fmt(d)} mmHg (reference ${fmt(REFERENCE.systolic.low)}–${fmt(REFERENCE.systolic.high)}/${fmt(REFERENCE.diastolic.low)}–${fmt(REFERENCE.diastolic.high)} mmHg): ${f}; ${categoryText}`,
    );
    if (category === 'hypertensive crisis') {
      alerts.push(
        `**Hypertensive crisis (ACC/AHA 2017):** blood pressure ${fmt(s)}/${fmt(d)} mmHg (above 180 and/or 120): assess now for acute target-organ damage.`,
      );
    }
  } else notOk('Blood pressure', bp);

  if (pulse.status === 'ok') {
    lines.push(
      `**Pulse:** ${fmt(pulse.value)} /min (reference ${rangeText(REFERENCE.pulse)}): ${flag(pulse.value, REFERENCE.pulse)}`,
    );
  } else notOk('Pulse', pulse);

  if (rr.status === 'ok') {
    lines.push(
      `**Respiratory rate:** ${fmt(rr.value)} /min (reference ${rangeText(REFERENCE.respiratoryRate)}): ${flag(rr.value, REFERENCE.respiratoryRate)}`,
    );
  } else notOk('Respiratory rate', rr);

  if (temp.status === 'ok') {
    const { celsius, fahrenheit } = temp.value;
    const value = fahrenheit === undefined ? `${fmt(celsius)} °C` : `${fmt(fahrenheit)} °F read as ${fmt(celsius)} °C`;
    lines.push(
      `**Temperature:** ${value} (reference ${rangeText(REFERENCE.temperature, 1)}): ${flag(celsius, REFERENCE.temperature)}`,
    );
  } else notOk('Temperature', temp);

  if (sugar.status === 'ok') {
    const { value, unit } = sugar.value;
    const range = unit === 'mmol/L' ? REFERENCE.glucoseMmolL : REFERENCE.glucoseMgDl;
    lines.push(`**Blood sugar:** ${fmt(value)} ${unit} (random glucose reference ${rangeText(range)}): ${flag(value, range)}`);
  } else if (sugar.status === 'unreadable' && sugar.unitUnclear) {
    lines.push(
      `**Blood sugar:** ${quote(sugar.raw)}: unit unclear (no unit recorded; too low for mg/dL, typical of mmol/L), not flagged — record the unit.`,
    );
  } else notOk('Blood sugar', sugar, false);

  // NEWS2 on the plausible values only.
  const score = news2({
    respirationRate: rr.status === 'ok' ? rr.value : null,
    systolicBP: bp.status === 'ok' ? bp.value.systolic : null,
    pulse: pulse.status === 'ok' ? pulse.value : null,
    temperature: temp.status === 'ok' ? temp.value.celsius : null,
  });
  const readings: Record<News2Parameter, Reading<unknown>> = { respirationRate: rr, systolicBP: bp, pulse, temperature: temp };
  const scored = score.subScores.map(({ parameter, value, score: points }) => {
    const { label, unit } = NEWS2_LABELS[parameter];
    return `${label} ${fmt(value)} ${unit}: ${points}`;
  });
  const unscored = score.unscored.map((p) => `${NEWS2_LABELS[p].label.toLowerCase()} (${NOT_SCORED_WHY(readings[p])})`);
  const headroom = NEWS2_MAX_UNSCORED_POINTS + 3 * score.unscored.length;

  lines.push(
    `**NEWS2 (partial): ${score.total}**`,
    scored.length ? `Sub-scores: ${scored.join('; ')}.` : "Sub-scores: none of the record's parameters could be scored.",
    `**Response (${score.band}):** ${score.response}.`,
    `Not scored: ${NEWS2_NOT_IN_RECORD.join(', ')} (not in the record)${unscored.length ? `; ${unscored.join('; ')}` : ''}.`,
    `Partial score: the unscored parameters can add up to ${headroom} points, so the full NEWS2 may be higher and its response more urgent (RCP 2017).`,
  );
  const age = r.biodata.age;
  if (age && age.years < 16) {
    lines.push(`Adult reference ranges and NEWS2 do not apply under 16 years (RCP 2017): interpret with paediatric ranges.`);
  }

  const threes = score.subScores.filter((s) => s.score === 3).map((s) => NEWS2_LABELS[s.parameter].label.toLowerCase());
  if (score.band === 'high') {
    alerts.unshift(
      `**NEWS2 ≥ 7 (partial score ${score.total}):** emergency response: emergency assessment by a team with critical-care competencies.`,
    );
  } else if (score.band === 'medium') {
    alerts.unshift(
      `**NEWS2 ≥ 5 (partial score ${score.total}):** urgent clinical review by a clinician competent in assessing acutely ill patients.`,
    );
  } else if (score.band === 'low-medium') {
    alerts.unshift(
      `**NEWS2 single parameter scoring 3 (${threes.join(', ')}):** urgent ward-based response: inform the medical team caring for the patient.`,
    );
  }
  return { lines, news2: score, alerts };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

// ------------------------------------------------------------------ alerts

/** Texts that differ only in case, punctuation or spacing count once; empty ones go. */
function distinct(texts: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of texts) {
    const key = normalise(t);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out;
}

const KIND_LABEL: Record<DrugAllergyAlert['kind'], string> = {
  'same-drug': 'same drug',
  'same-class': 'same class',
  'cross-reactivity': 'cross-reactivity warning',
};

// ------------------------------------------------------------------ the summary

export function buildSummary(record: MedicalRecord, options: SummaryOptions = {}): Summary {
  const prescriptions = options.prescriptions ?? [];
  const allergies = distinct([record.allergies ?? '', ...prescriptions.flatMap((p) => p.allergies ?? [])]);
  const drugs = distinct([record.treatment?.prescribedDrug ?? '', ...prescriptions.map((p) => p.prescribedDrug ?? '')]);
  const alerts = drugs.flatMap((drug) => drugAllergyAlerts(drug, allergies));
  const otherDrugs = drugs.filter((d) => normalise(d) !== normalise(record.treatment?.prescribedDrug ?? ''));

  const vitals = vitalsSection(record);
  const alertLines = [
    ...alerts.map((a) => `**Drug–allergy alert (${KIND_LABEL[a.kind]}):** ${inline(a.message)}`),
    ...vitals.alerts,
  ];

  const sections = [
    patientSection(record),
    presentingSection(record),
    historySection(record),
    vitals.lines,
    investigationsSection(record),
    treatmentSection(record, otherDrugs),
    ['## Alerts', ...(alertLines.length ? alertLines : ['No alerts.'])],
    [DISCLAIMER],
  ];
  return { markdown: sections.map((s) => s.join('\n')).join('\n\n') + '\n', news2: vitals.news2, alerts };
}
