import type { MedicalRecord, MedicationAlert } from 'shared-contracts';
import { medicationAlerts, readAllergyText, type AllergyEntry } from './medication-safety';
import { normalise } from './vocabulary';
import { NEWS2_LABELS, type News2Result } from './news2';
import { recordObservations } from './observations';
import { bpCategory, flag, fmt, rangeText, REFERENCE, type Reading } from './vitals';
// The record's field labels are the record descriptor's.
import { recordField, recordSections, summaryLabelOf, type RecordFieldName } from 'shared-contracts';

/*
 * The deterministic decision-support summary of one medical record: a Markdown text (only "## "
 * headings, **bold** and line breaks, which is all the UI renders), the NEWS2 result and the
 * medication-safety alerts (medication-safety.ts: drug–allergy and drug–drug). Same record in, same
 * text out: nothing here reads the clock.
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
function allergySection(r: MedicalRecord, onFile: string[]): string[] {
  const here = inline(r.allergies ?? '');
  const others = onFile.filter((a) => normalise(a) !== normalise(here));
  const lines = [
    field(labelOf('medicalHistory.allergies'), here || 'Not recorded in this record.'),
    ...(others.length ? [field('On file (earlier records and prescriptions)', others.map(inline).join('; '))] : []),
  ];
  if (!here && !others.length) return ['## Allergies', field(labelOf('medicalHistory.allergies'), 'Not recorded.')];
  return ['## Allergies', ...lines];
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
  /** alert lines about the vital signs (critical values, NEWS2, sepsis, implausible values) */
  alerts: string[];
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

/* Glucose thresholds per unit, so a value typed in mg/dL is compared in mg/dL (54 mg/dL is not
   "below 3.0 mmol/L" by rounding). ADA Standards of Care 2024 §6 (level 2 hypoglycaemia < 54 mg/dL,
   3.0 mmol/L); NICE NG17/NG28 "4 is the floor" (< 4.0 mmol/L, 72 mg/dL, low); > 25 mmol/L (450 mg/dL)
   severe hyperglycaemia (JBDS-IP / NICE NG17 ketone check threshold range). */
const GLUCOSE_THRESHOLDS = {
  'mmol/L': { hypo: 3.0, low: 4.0, severeHigh: 25 },
  'mg/dL': { hypo: 54, low: 72, severeHigh: 450 },
} as const;

/** Words in the history that suggest an infection (NICE NG51 1.1.1: "think sepsis" when a person may have an infection). */
const INFECTION_WORDS =
  /\b(?:infect\w*|sepsis|septic|fever\w*|febrile|pyrexi\w*|rigou?rs?|chills|cough\w*|sputum|pneumoni\w*|uti|urinary tract|dysuria|cellulitis|abscess\w*|meningit\w*|wound)\b/i;

function vitalsSection(r: MedicalRecord): VitalsView {
  const g = r.examination.generalPhysicalExamination;
  const { bp, pulse, rr, temp, sugar, spo2, scale, onOxygen, consciousness, news2: score } = recordObservations(r);

  const lines: string[] = ['## Vital signs'];
  const alerts: string[] = [];
  const critical: string[] = [];
  if (inline(g.observedAt ?? '')) lines.push(field('Observation time', (g.observedAt ?? '').replace('T', ' ')));
  const notOk = (label: string, reading: AnyReading, scored = true) => {
    const why = NOT_SCORED_WHY(reading)!;
    const tail = scored ? ' — not scored' : '';
    lines.push(reading.status === 'missing' ? field(label, `Not measured${tail}.`) : `**${label}:** ${capitalise(why)}${tail}.`);
    if (reading.status === 'implausible')
      alerts.push(
        `**Implausible value:** ${label.toLowerCase()} ${quote(reading.raw)} (${reading.reason})${scored ? ', not scored' : ''}: re-measure and correct the record.`,
      );
    if (reading.status === 'unreadable')
      alerts.push(
        `**Value not interpreted:** ${label.toLowerCase()} ${quote(reading.raw)}${scored ? ', not scored' : ''}: re-measure and correct the record.`,
      );
  };

  // Blood pressure: flags per component against 90–120/60–80, then the ACC/AHA 2017 category of
  // this ONE reading (a category is diagnosed on repeated readings, not named from one).
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
        ? 'reading in the low (hypotension) range (one reading; confirm on repeat)'
        : `reading in the ${category} range (ACC/AHA 2017; one reading; confirm on repeat)`;
    lines.push(
      `**Blood pressure:** ${fmt(s)}/${fmt(d)} mmHg (reference ${fmt(REFERENCE.systolic.low)}–${fmt(REFERENCE.systolic.high)}/${fmt(REFERENCE.diastolic.low)}–${fmt(REFERENCE.diastolic.high)} mmHg): ${f}; ${categoryText}`,
    );
    if (category === 'hypertensive crisis') {
      critical.push(
        `**Blood pressure reading in the hypertensive crisis range (ACC/AHA 2017):** ${fmt(s)}/${fmt(d)} mmHg (above 180 and/or 120; one reading; confirm on repeat): assess now for acute target-organ damage.`,
      );
    }
    // systolic < 90 mmHg: hypotension (NICE NG51 and NEWS2 both score ≤ 90 as 3)
    if (s < 90) critical.push(`**Hypotension:** systolic ${fmt(s)} mmHg (below 90 mmHg): assess for shock now.`);
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
    // RCP 2017: on scale 1 a saturation below 92 % scores 3 and needs review (BTS target 94–98 %)
    if (scale === 1 && spo2.value < 92)
      critical.push(`**Low oxygen saturation:** SpO2 ${fmt(spo2.value)} % on scale 1 (below 92 %): assess now.`);
  } else notOk('SpO2', spo2);
  lines.push(field('Air or oxygen', onOxygen === null ? 'Not recorded.' : onOxygen ? 'Supplemental oxygen' : 'Air'));
  lines.push(field('Consciousness', consciousness ? CONSCIOUSNESS_TEXT[consciousness] : 'Not recorded.'));
  if (consciousness === 'C')
    critical.push('**New confusion (ACVPU “C”):** new-onset confusion scores 3 in NEWS2 (RCP 2017): urgent clinical review.');
  else if (consciousness && consciousness !== 'A')
    critical.push(
      `**Reduced consciousness (ACVPU “${consciousness}”):** ${CONSCIOUSNESS_TEXT[consciousness]}: urgent clinical review.`,
    );

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
    const t = GLUCOSE_THRESHOLDS[unit];
    const reading = `${fmt(value)} ${unit}`;
    if (value < t.hypo)
      critical.push(`**Hypoglycaemia:** blood sugar ${reading} (below ${t.hypo} ${unit}, ADA level 2): treat now.`);
    else if (value < t.low) critical.push(`**Low blood sugar:** ${reading} (below ${t.low} ${unit}, NICE): treat and recheck.`);
    else if (value > t.severeHigh)
      critical.push(
        `**Severe hyperglycaemia:** blood sugar ${reading} (above ${t.severeHigh} ${unit}): check ketones and assess for DKA/HHS now.`,
      );
  } else if (sugar.status === 'not-interpreted') {
    lines.push(
      `**Blood sugar:** ${NOT_SCORED_WHY(sugar)}; not flagged${sugar.why === 'unit unknown' ? ' — record the unit (mmol/L or mg/dL)' : ''}.`,
    );
  } else notOk('Blood sugar', sugar, false);

  // NEWS2 on the plausible values only (recordObservations).
  const scored = score.subScores.map(
    ({ parameter, value, score: points }) => `${NEWS2_LABELS[parameter].label} ${value}: ${points}`,
  );
  const subScores = scored.length ? `Sub-scores: ${scored.join('; ')}.` : 'Sub-scores: no parameter could be scored.';
  if (score.complete) {
    lines.push(`**NEWS2: ${score.total}**`, subScores, `**Response (${score.band}, RCP 2017 Chart 4):** ${score.response}.`);
  } else {
    lines.push(
      `**NEWS2 incomplete: at least ${score.total}**`,
      subScores,
      `Missing: ${score.missing.map((p) => NEWS2_LABELS[p].label).join(', ')}.`,
      'No response tier: an incomplete score can only rise. Record the missing parameters to score NEWS2 (RCP 2017).',
    );
  }

  const age = r.biodata.age;
  const adult = !!age && age.years >= 16;
  if (!age) {
    lines.push('Age unknown: NEWS2 is validated from 16 years (RCP 2017), so no NEWS2 alerts are raised.');
  } else if (!adult) {
    lines.push(
      'Under 16 years: NEWS2 is not validated (RCP 2017), so no NEWS2 alerts are raised; adult reference ranges and the adult sepsis criteria do not apply: use paediatric ranges and tools.',
    );
  }

  const newsAlerts: string[] = [];
  const threes = score.subScores.filter((s) => s.score === 3).map((s) => NEWS2_LABELS[s.parameter].label.toLowerCase());
  const what = score.complete ? `NEWS2 ${score.total}` : `NEWS2 at least ${score.total} (incomplete)`;
  // An incomplete score is a lower bound: reaching a threshold already is a true trigger (RCP 2017 Chart 3).
  if (score.total >= 7)
    newsAlerts.push(`**${what}, ≥ 7:** emergency response: emergency assessment by a team with critical-care competencies.`);
  else if (score.total >= 5)
    newsAlerts.push(`**${what}, ≥ 5:** urgent clinical review by a clinician competent in assessing acutely ill patients.`);
  else if (score.singleParameterThree)
    newsAlerts.push(
      `**NEWS2 single parameter scoring 3 (${threes.join(', ')}):** urgent ward-based response: inform the medical team caring for the patient.`,
    );

  const sepsis =
    age && !adult
      ? undefined
      : sepsisScreen(r, {
          rr: rr.status === 'ok' ? rr.value : undefined,
          systolic: bp.status === 'ok' ? bp.value.systolic : undefined,
          pulse: pulse.status === 'ok' ? pulse.value : undefined,
          spo2: spo2.status === 'ok' ? spo2.value : undefined,
          onOxygen,
          consciousness,
          celsius: temp.status === 'ok' ? temp.value.celsius : undefined,
        });
  return {
    lines,
    news2: score,
    alerts: [...(sepsis ? [sepsis] : []), ...(adult ? newsAlerts : []), ...critical, ...alerts],
  };
}

const CONSCIOUSNESS_TEXT: Record<string, string> = {
  A: 'A (alert)',
  C: 'C (new confusion)',
  V: 'V (responds to voice)',
  P: 'P (responds to pain)',
  U: 'U (unresponsive)',
};

interface SepsisSigns {
  rr?: number;
  systolic?: number;
  pulse?: number;
  spo2?: number;
  onOxygen: boolean | null;
  consciousness: string | null;
  celsius?: number;
}

/**
 * The sepsis screen: when the record suggests an infection (a fever above 38 °C, or infection words
 * in the history or examination text), NICE NG51 (2016, updated 2024) high-risk criteria for adults —
 * RR ≥ 25, systolic ≤ 90, HR > 130, SpO2 < 92 % on air, new confusion or altered mental state,
 * temperature < 36 °C — and qSOFA (Seymour et al., JAMA 2016; Sepsis-3) — RR ≥ 22, altered
 * mentation, systolic ≤ 100, two or more — raise "Possible sepsis" with the criteria met.
 */
export function sepsisScreen(r: MedicalRecord, v: SepsisSigns): string | undefined {
  const fever = v.celsius !== undefined && v.celsius > 38;
  const text = [
    r.historyOfPresentingComplaints,
    r.historyOfPresentingIllness,
    ...Object.values(r.systemicHistory ?? {}),
    r.examination.generalPhysicalExamination.Notes,
    r.examination.respiratorySystem,
  ].join(' ');
  if (!fever && !INFECTION_WORDS.test(text)) return undefined;

  const altered = !!v.consciousness && v.consciousness !== 'A';
  const ng51 = [
    v.rr !== undefined && v.rr >= 25 && `respiratory rate ${fmt(v.rr)} /min (≥ 25)`,
    v.systolic !== undefined && v.systolic <= 90 && `systolic ${fmt(v.systolic)} mmHg (≤ 90)`,
    v.pulse !== undefined && v.pulse > 130 && `heart rate ${fmt(v.pulse)} /min (> 130)`,
    v.spo2 !== undefined && v.onOxygen === false && v.spo2 < 92 && `SpO2 ${fmt(v.spo2)} % on air (< 92)`,
    altered && `altered mental state (ACVPU ${v.consciousness})`,
    v.celsius !== undefined && v.celsius < 36 && `temperature ${fmt(v.celsius)} °C (< 36)`,
  ].filter((c): c is string => !!c);
  const qsofa = [
    v.rr !== undefined && v.rr >= 22 && `respiratory rate ${fmt(v.rr)} /min (≥ 22)`,
    altered && 'altered mentation',
    v.systolic !== undefined && v.systolic <= 100 && `systolic ${fmt(v.systolic)} mmHg (≤ 100)`,
  ].filter((c): c is string => !!c);
  if (ng51.length === 0 && qsofa.length < 2) return undefined;
  const parts = [
    ng51.length ? `NICE NG51 high-risk criteria: ${ng51.join(', ')}` : '',
    qsofa.length >= 2 ? `qSOFA ${qsofa.length}/3: ${qsofa.join(', ')}` : '',
  ].filter(Boolean);
  const why = fever ? 'fever' : 'history suggests infection';
  return `**Possible sepsis:** ${parts.join('; ')} (${why}): assess for sepsis now (NICE NG51).`;
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

/** The alert line's label: what kind of check, and how serious. */
function alertLabel(a: MedicationAlert): string {
  switch (a.kind) {
    case 'allergy':
      return a.severity === 'stop' ? 'Drug–allergy alert (stop)' : 'Drug–allergy alert (warning)';
    case 'cross-reactivity':
      return 'Drug–allergy alert (cross-reactivity warning)';
    case 'intolerance':
      return 'Drug intolerance (information)';
    case 'interaction':
      return a.severity === 'stop' ? 'Drug–drug interaction (stop)' : 'Drug–drug interaction (warning)';
  }
}

/**
 * Every drug on the record and the patient's prescriptions against every allergy (free-text notes read
 * by readAllergyText, and structured entries), and each pair of those drugs once for interactions.
 */
function summaryAlerts(drugs: string[], notes: string[], structured: AllergyEntry[]): MedicationAlert[] {
  const allergies = [...notes.flatMap(readAllergyText), ...structured];
  const seen = new Set<string>();
  return drugs
    .flatMap((drug, i) => medicationAlerts(drug, { allergies, activeMedications: drugs.slice(i + 1) }))
    .filter((a) => {
      const key = `${a.severity}|${a.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

// ------------------------------------------------------------------ the summary

export function buildSummary(record: MedicalRecord, options: SummaryOptions = {}): Summary {
  const prescriptions = options.prescriptions ?? [];
  const onFile = distinct([...(options.allergiesOnFile ?? []), ...prescriptions.flatMap((p) => p.allergies ?? [])]);
  const allergies = distinct([record.allergies ?? '', ...onFile]);
  const drugs = distinct([record.treatment?.prescribedDrug ?? '', ...prescriptions.map((p) => p.prescribedDrug ?? '')]);
  const alerts = options.allergyEntries ? summaryAlerts(drugs, [], options.allergyEntries) : summaryAlerts(drugs, allergies, []);
  const otherDrugs = drugs.filter((d) => normalise(d) !== normalise(record.treatment?.prescribedDrug ?? ''));

  const vitals = vitalsSection(record);
  const alertLines = [...alerts.map((a) => `**${alertLabel(a)}:** ${inline(a.message)}`), ...vitals.alerts];

  const sections = [
    patientSection(record),
    presentingSection(record),
    historySection(record),
    allergySection(record, onFile),
    vitals.lines,
    investigationsSection(record),
    treatmentSection(record, otherDrugs),
    ['## Alerts', ...(alertLines.length ? alertLines : ['No alerts.'])],
    [DISCLAIMER],
  ];
  return { markdown: sections.map((s) => s.join('\n')).join('\n\n') + '\n', news2: vitals.news2, alerts };
}
