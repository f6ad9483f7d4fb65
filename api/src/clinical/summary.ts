import type { Assessment, AssessmentFinding, MedicalRecord, MedicationAlert } from '@careloop/shared-contracts';
import { assessRecord, distinctTexts } from './assessment';
import type { AllergyEntry } from './medication-safety';
import { normalise } from './vocabulary';
import { NEWS2_LABELS, type News2Result } from './news2';
import { recordObservations } from './observations';
import { bpCategory, flag, fmt, rangeText, REFERENCE, type Reading } from './vitals';
// The record's field labels are the record descriptor's.
import { recordField, recordSections, summaryLabelOf, type RecordFieldName } from '@careloop/shared-contracts';

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
  const lines = [
    ...nonEmpty([
      [labelOf('medicalHistory.pastMedicalHistory'), r.pastMedicalHistory],
      [labelOf('medicalHistory.pastSurgicalHistory'), r.pastSurgicalHistory],
      [labelOf('medicalHistory.drugHistory'), r.drugHistory],
      [labelOf('medicalHistory.familyHistory'), r.familyHistory],
      [labelOf('medicalHistory.socioeconomicHistory'), r.socioeconomicHistory],
      inline(r.occupationalHistory)
        ? [labelOf('medicalHistory.occupationalHistory'), r.occupationalHistory]
        : ['Occupation', r.biodata.occupation],
      [labelOf('medicalHistory.gynecologicalHistory'), r.gynecologicalHistory],
      [labelOf('medicalHistory.travelHistory'), r.travelHistory],
    ]),
  ];
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
    field(labelOf('medicalHistory.allergies'), here || 'Not recorded in this record.'),
    ...(others.length ? [field('On file (earlier records and prescriptions)', quoted.join('; '))] : []),
    ...(listed.length ? [field('Allergy list', distinctTexts(listed).join('; '))] : []),
  ];
  if (!here && !others.length && !listed.length)
    return ['## Allergies', field(labelOf('medicalHistory.allergies'), 'Not recorded.')];
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
}

type AnyReading = Reading<unknown> | { status: 'not-interpreted'; raw: string; why: string };

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

/** The record's vital signs, one line per reading. The alerts they raise are the assessment's. */
function vitalsSection(r: MedicalRecord, assessment: Assessment): VitalsView {
  const g = r.examination.generalPhysicalExamination;
  const { bp, pulse, rr, temp, sugar, spo2, scale, onOxygen, consciousness, news2: score } = recordObservations(r);

  const lines: string[] = ['## Vital signs'];
  if (inline(g.observedAt ?? '')) lines.push(field('Observation time', (g.observedAt ?? '').replace('T', ' ')));
  const notOk = (label: string, reading: AnyReading, scored = true) => {
    const why = NOT_SCORED_WHY(reading)!;
    const tail = scored ? ' — not scored' : '';
    lines.push(reading.status === 'missing' ? field(label, `Not measured${tail}.`) : `**${label}:** ${capitalise(why)}${tail}.`);
  };

  // Blood pressure: flags per component against 90–120/60–80, then the ACC/AHA 2017 category of
  // this ONE reading (a category is diagnosed on repeated readings, not named from one).
  if (bp.status === 'ok') {
    const { systolic: s, diastolic: d } = bp.value;
    const fs = flag(s, REFERENCE.systolic);
    const fd = flag(d, REFERENCE.diastolic);
    let f =
      fs === fd ? fs : [fs !== 'normal' && `systolic ${fs}`, fd !== 'normal' && `diastolic ${fd}`].filter(Boolean).join(', ');
    const category = bpCategory(s, d);
    const low = fs === 'low' || fd === 'low';
    // never "normal" beside a criterion the same value meets
    const qsofa = s <= QSOFA_SYSTOLIC;
    if (qsofa && f === 'normal') f = `systolic ${fmt(s)} mmHg is at or below ${QSOFA_SYSTOLIC} (a qSOFA criterion)`;
    const categoryText =
      (low || qsofa) && category === 'normal'
        ? `reading in the low${low ? ' (hypotension)' : '-normal'} range (one reading; confirm on repeat)`
        : `reading in the ${category} range (ACC/AHA 2017; one reading; confirm on repeat)`;
    lines.push(
      `**Blood pressure:** ${fmt(s)}/${fmt(d)} mmHg (reference ${fmt(REFERENCE.systolic.low)}–${fmt(REFERENCE.systolic.high)}/${fmt(REFERENCE.diastolic.low)}–${fmt(REFERENCE.diastolic.high)} mmHg): ${f}; ${categoryText}`,
    );
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

  if (spo2.status === 'ok') {
    lines.push(`**SpO2:** ${fmt(spo2.value)} % (scale ${scale}${scale === 2 ? ', target 88–92 %' : ''})`);
  } else notOk('SpO2', spo2);
  lines.push(field('Air or oxygen', onOxygen === null ? 'Not recorded.' : onOxygen ? 'Supplemental oxygen' : 'Air'));
  lines.push(field('Consciousness', consciousness ? CONSCIOUSNESS_TEXT[consciousness] : 'Not recorded.'));

  if (temp.status === 'ok') {
    const { celsius, fahrenheit } = temp.value;
    const value = fahrenheit === undefined ? `${fmt(celsius)} °C` : `${fmt(fahrenheit)} °F read as ${fmt(celsius)} °C`;
    lines.push(
      `**Temperature:** ${value} (reference ${rangeText(REFERENCE.temperature, 1)}): ${flag(celsius, REFERENCE.temperature)}`,
    );
  } else notOk('Temperature', temp);

  if (sugar.status === 'ok') {
    const { value, unit, postPrandial } = sugar.value;
    const range = unit === 'mmol/L' ? REFERENCE.glucoseMmolL : REFERENCE.glucoseMgDl;
    lines.push(
      postPrandial
        ? `**Blood sugar:** ${fmt(value)} ${unit}, post-prandial (not compared with the random-glucose range)`
        : `**Blood sugar:** ${fmt(value)} ${unit} (random glucose reference ${rangeText(range)}): ${flag(value, range)}`,
    );
  } else if (sugar.status === 'not-interpreted') {
    const meter = /^(?:lo|low|hi|high)$/i.test(sugar.raw.trim());
    lines.push(
      meter
        ? `**Blood sugar:** ${quote(sugar.raw)}: outside the meter's measuring range (see alerts).`
        : `**Blood sugar:** ${NOT_SCORED_WHY(sugar)}; not flagged${sugar.why === 'unit unknown' ? ' — record the unit (mmol/L or mg/dL)' : ''}.`,
    );
  } else notOk('Blood sugar', sugar, false);

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

const CONSCIOUSNESS_TEXT: Record<string, string> = {
  A: 'A (alert)',
  C: 'C (new confusion)',
  V: 'V (responds to voice)',
  P: 'P (responds to pain)',
  U: 'U (unresponsive)',
};

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
