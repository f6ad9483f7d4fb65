import {
  labelInSentence,
  vitalSigns,
  type Acuity,
  type Assessment,
  type AssessmentFinding,
  type MedicalRecord,
  type MedicationAlert,
  type Pregnancy,
} from '@careloop/shared-contracts';
import { ageOn, type Age } from './age';
import { infectionWordIn } from './infection';
import { medicationAlerts, readAllergyText, uncodedDrug, VOCABULARY_VERSION, type AllergyEntry } from './medication-safety';
import { NEWS2_LABELS } from './news2';
import { recordObservations, type RecordObservations } from './observations';
import { bpCategory, fmt } from './vitals';
import { isAntibiotic } from './antibiotics';
import { normalise } from './vocabulary';

/*
 * The clinical assessment of one medical record: every finding the decision support makes of it,
 * each with its acuity and its source, computed once (when the record is written, and again when
 * anything it reads changes) and read by every view — the record page's banner, the summary, the
 * worklist. Nothing else recomputes its own alerts.
 *
 * Fail safe by construction: context (age, pregnancy) may ADD a caveat or a finding, never remove
 * one. Unknown age → adult rules with a caveat; under 16 → no adult NEWS2 tier (a caveat says to
 * use a paediatric score) but every age-independent critical value still alerts; pregnancy → NEWS2
 * shown with a caveat. What could not be read is a finding too (re-measure), never silence.
 */

export interface AssessmentContext {
  /** the patient's date of birth now ('YYYY-MM-DD'): the age on the day of admission is read from it */
  dob?: string | null;
  pregnancy?: Pregnancy | null;
  /** every allergy entry of the patient (structured, and read from unreviewed notes) */
  allergyEntries?: AllergyEntry[];
  /** free-text allergy notes, read when no entries are given (pure tests) */
  allergyNotes?: string[];
  /** the patient's other drugs on file (prescriptions) */
  otherDrugs?: string[];
  computedAt: Date;
  /** the patient's clinical version the context was read at (stale when it moves on) */
  contextVersion: number;
}

const RANK: Record<Acuity, number> = { emergency: 3, urgent: 2, review: 1, none: 0 };
export const acuityRank = (a: Acuity) => RANK[a];
export const highestAcuity = (all: Acuity[]): Acuity => all.reduce<Acuity>((top, a) => (RANK[a] > RANK[top] ? a : top), 'none');

/*
 * Critical values: age-independent, and ranked above NEWS2 (an emergency whatever the score).
 * Sources beside each threshold.
 */
export const CRITICAL = {
  // Medical Emergency Team calling criteria (Lee A et al. Anaesth Intensive Care 1995;23:183–6;
  // MERIT, Lancet 2005;365:2091–7): HR < 40 or > 140, RR < 8 or > 30, systolic < 90.
  // Peri-arrest below 30 /min: RCUK Adult bradycardia algorithm (2021), extreme bradycardia.
  pulse: { low: 40, high: 140, periArrest: 30 },
  respiratoryRate: { low: 8, high: 30 },
  // Systolic < 90: MET criteria, NICE NG51 high risk; < 70: profound shock (RCUK ALS peri-arrest).
  systolic: { low: 90, critical: 70 },
  // BTS oxygen guideline (O'Driscoll et al. Thorax 2017;72:i1–i90): SpO2 < 85 % critical on any
  // target (reservoir mask); < 92 % on scale 1 scores 3 in NEWS2 (RCP 2017) and needs review now.
  spo2: { anyScale: 85, scale1: 92 },
  // Hyperpyrexia ≥ 40 °C (NICE NG143 / heat illness), hypothermia < 35 °C (NICE CG65, WHO).
  temperature: { high: 40, low: 35 },
  // ADA Standards of Care 2024 §6: level 2 hypoglycaemia < 3.0 mmol/L (54 mg/dL); JBDS-IP:
  // > 25 mmol/L (450 mg/dL) severe hyperglycaemia, check ketones (DKA/HHS).
  glucose: { 'mmol/L': { hypo: 3.0, low: 4.0, high: 25 }, 'mg/dL': { hypo: 54, low: 72, high: 450 } },
} as const;

const SRC = {
  met: 'MET calling criteria (Lee 1995; MERIT 2005)',
  rcuk: 'RCUK ALS 2021',
  bts: 'BTS oxygen guideline 2017',
  news2: 'RCP NEWS2 2017, Charts 3–4',
  ng51: 'NICE NG51',
  qsofa: 'qSOFA (Seymour, JAMA 2016)',
  temp: 'NICE NG143; NICE CG65',
  ada: 'ADA Standards of Care 2024 §6',
  nice: 'NICE NG17/NG28',
  jbds: 'JBDS-IP',
  acc: 'ACC/AHA 2017',
  meter: 'MHRA: point-of-care glucose meters (LO/HI outside the measuring range)',
  data: 'record data quality',
} as const;

const finding = (acuity: Acuity, kind: AssessmentFinding['kind'], title: string, detail: string, source: string) =>
  ({ acuity, kind, title, detail, source }) satisfies AssessmentFinding;

type Found = ReturnType<typeof finding>;

function criticalValues(o: RecordObservations): Found[] {
  const out: Found[] = [];
  const { pulse, rr, bp, spo2, scale, temp, sugar, consciousness, onOxygen } = o;
  if (pulse.status === 'ok') {
    const p = pulse.value;
    if (p < CRITICAL.pulse.periArrest)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: pulse ${fmt(p)} /min`,
          `below ${CRITICAL.pulse.periArrest} /min, peri-arrest: call for help now`,
          SRC.rcuk,
        ),
      );
    else if (p < CRITICAL.pulse.low)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: pulse ${fmt(p)} /min`,
          `below ${CRITICAL.pulse.low} /min: assess now`,
          SRC.met,
        ),
      );
    else if (p > CRITICAL.pulse.high)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: pulse ${fmt(p)} /min`,
          `above ${CRITICAL.pulse.high} /min: assess now`,
          SRC.met,
        ),
      );
  }
  if (rr.status === 'ok') {
    const r = rr.value;
    if (r < CRITICAL.respiratoryRate.low)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: respiratory rate ${fmt(r)} /min`,
          `below ${CRITICAL.respiratoryRate.low} /min: assess airway and breathing now`,
          SRC.met,
        ),
      );
    else if (r > CRITICAL.respiratoryRate.high)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: respiratory rate ${fmt(r)} /min`,
          `above ${CRITICAL.respiratoryRate.high} /min: assess now`,
          SRC.met,
        ),
      );
  }
  if (bp.status === 'ok') {
    const s = bp.value.systolic;
    if (s < CRITICAL.systolic.critical)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: systolic ${fmt(s)} mmHg`,
          `below ${CRITICAL.systolic.critical} mmHg, profound hypotension: resuscitate now`,
          SRC.rcuk,
        ),
      );
    else if (s < CRITICAL.systolic.low)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: systolic ${fmt(s)} mmHg`,
          `below ${CRITICAL.systolic.low} mmHg, hypotension: assess for shock now`,
          SRC.met,
        ),
      );
  }
  if (spo2.status === 'ok') {
    const v = spo2.value;
    const on = onOxygen === true ? ' on oxygen' : onOxygen === false ? ' on air' : '';
    if (v < CRITICAL.spo2.anyScale)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: SpO2 ${fmt(v)} %${on}`,
          `below ${CRITICAL.spo2.anyScale} % (scale ${scale}): give oxygen and assess now`,
          SRC.bts,
        ),
      );
    else if (scale === 1 && v < CRITICAL.spo2.scale1)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: SpO2 ${fmt(v)} %${on}`,
          `below ${CRITICAL.spo2.scale1} % on scale 1: assess now`,
          `${SRC.news2}; ${SRC.bts}`,
        ),
      );
  }
  if (temp.status === 'ok') {
    const c = temp.value.celsius;
    if (c >= CRITICAL.temperature.high)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: temperature ${fmt(c)} °C`,
          `${CRITICAL.temperature.high} °C or above, hyperpyrexia: cool and assess now`,
          SRC.temp,
        ),
      );
    else if (c < CRITICAL.temperature.low)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: temperature ${fmt(c)} °C`,
          `below ${CRITICAL.temperature.low} °C, hypothermia: rewarm and assess now`,
          SRC.temp,
        ),
      );
  }
  if (sugar.status === 'ok') {
    const { value, unit } = sugar.value;
    const t = CRITICAL.glucose[unit];
    const reading = `${fmt(value)} ${unit}`;
    if (value < t.hypo)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: glucose ${reading}`,
          `below ${t.hypo} ${unit} (level 2 hypoglycaemia): treat now`,
          SRC.ada,
        ),
      );
    else if (value > t.high)
      out.push(
        finding(
          'emergency',
          'critical',
          `Critical: glucose ${reading}`,
          `above ${t.high} ${unit}, severe hyperglycaemia: check ketones and assess for DKA/HHS now`,
          SRC.jbds,
        ),
      );
    else if (value < t.low)
      out.push(finding('urgent', 'glucose', `Low glucose ${reading}`, `below ${t.low} ${unit}: treat and recheck`, SRC.nice));
  } else if (sugar.status === 'not-interpreted' && /^(?:lo|low)$/i.test(sugar.raw.trim())) {
    out.push(
      finding(
        'emergency',
        'critical',
        'Critical: glucose meter “LO”',
        'below the meter’s measuring range: treat as severe hypoglycaemia and confirm with a laboratory glucose now',
        SRC.meter,
      ),
    );
  } else if (sugar.status === 'not-interpreted' && /^(?:hi|high)$/i.test(sugar.raw.trim())) {
    out.push(
      finding(
        'emergency',
        'critical',
        'Critical: glucose meter “HI”',
        'above the meter’s measuring range: check ketones, confirm with a laboratory glucose and assess for DKA/HHS now',
        SRC.meter,
      ),
    );
  }
  if (consciousness === 'C')
    out.push(
      finding(
        'emergency',
        'critical',
        'Critical: new confusion',
        'new-onset confusion (ACVPU “C”) scores 3 in NEWS2: urgent clinical review now',
        `${SRC.news2}; ${SRC.met}`,
      ),
    );
  else if (consciousness && consciousness !== 'A')
    out.push(
      finding(
        'emergency',
        'critical',
        `Critical: reduced consciousness (ACVPU “${consciousness}”)`,
        `${CONSCIOUSNESS_TEXT[consciousness]}: assess airway and call for help now`,
        `${SRC.news2}; ${SRC.met}`,
      ),
    );
  return out;
}

const CONSCIOUSNESS_TEXT: Record<string, string> = {
  A: 'alert',
  C: 'new confusion',
  V: 'responds to voice',
  P: 'responds to pain',
  U: 'unresponsive',
};

function news2Findings(o: RecordObservations, adultTier: boolean): Found[] {
  const score = o.news2;
  if (!adultTier) return [];
  const what = score.complete ? `NEWS2 ${score.total}` : `NEWS2 at least ${score.total} (incomplete)`;
  const threes = score.subScores.filter((s) => s.score === 3).map((s) => labelInSentence(NEWS2_LABELS[s.parameter].label));
  // An incomplete score is a lower bound: reaching a threshold already is a true trigger (Chart 3).
  if (score.total >= 7)
    return [
      finding(
        'emergency',
        'news2',
        `${what} high`,
        'emergency response: emergency assessment by a team with critical-care competencies',
        SRC.news2,
      ),
    ];
  if (score.total >= 5)
    return [
      finding(
        'urgent',
        'news2',
        `${what} medium`,
        'urgent response: review by a clinician competent in assessing acutely ill patients',
        SRC.news2,
      ),
    ];
  if (score.singleParameterThree)
    return [
      finding(
        'urgent',
        'news2',
        `${what}, single parameter scoring 3 (${threes.join(', ')})`,
        'urgent ward-based response: inform the medical team caring for the patient',
        SRC.news2,
      ),
    ];
  if (!score.complete)
    return [
      finding(
        'review',
        'news2',
        `NEWS2 incomplete (at least ${score.total})`,
        `missing ${score.missing.map((p) => labelInSentence(NEWS2_LABELS[p].label)).join(', ')}: an incomplete score can only rise; record them`,
        SRC.news2,
      ),
    ];
  if (score.total >= 1)
    return [
      finding(
        'review',
        'news2',
        `NEWS2 ${score.total} low`,
        'ward-based response: assess and decide whether monitoring should increase',
        SRC.news2,
      ),
    ];
  return [];
}

/** Every free text of the record: title, complaints, histories, examination notes, investigations, treatment. */
function recordText(r: MedicalRecord): string {
  const texts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') texts.push(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  // not the record's own text: what was computed from it (the stored assessment, the summary) and who wrote it
  const { biodata: _b, doctorInfo: _d, summary: _s, summaryInfo: _si, assessment: _a, _id, patient, createdAt, ...clinical } = r;
  walk(clinical);
  return texts.join(' \n ');
}

/**
 * The sepsis screen (NICE NG51, 2016 updated 2024; qSOFA, Sepsis-3): when the record suggests an
 * infection — a temperature above 38 °C, an infection word in ANY free-text field, or an antibiotic
 * prescribed — NG51's high-risk criteria (RR ≥ 25; new need for oxygen to keep SpO2 above 92 %,
 * 88 % on scale 2, or SpO2 < 92 % on air; systolic ≤ 90; HR > 130; new confusion or altered mental
 * state; temperature < 36 °C) or qSOFA ≥ 2 (RR ≥ 22, altered mentation, systolic ≤ 100) raise
 * "Possible sepsis", an emergency (NG51: immediate senior review).
 */
export function sepsisScreen(r: MedicalRecord, o: RecordObservations, drugs: string[]): Found | undefined {
  const celsius = o.temp.status === 'ok' ? o.temp.value.celsius : undefined;
  const fever = celsius !== undefined && celsius > 38;
  const word = infectionWordIn(recordText(r));
  const antibiotic = drugs.find(isAntibiotic);
  if (!fever && !word && !antibiotic) return undefined;
  const rr = o.rr.status === 'ok' ? o.rr.value : undefined;
  const systolic = o.bp.status === 'ok' ? o.bp.value.systolic : undefined;
  const pulse = o.pulse.status === 'ok' ? o.pulse.value : undefined;
  const spo2 = o.spo2.status === 'ok' ? o.spo2.value : undefined;
  const altered = !!o.consciousness && o.consciousness !== 'A';
  const target = o.scale === 2 ? 88 : 92;
  const ng51 = [
    rr !== undefined && rr >= 25 && `respiratory rate ${fmt(rr)} /min (≥ 25)`,
    systolic !== undefined && systolic <= 90 && `systolic ${fmt(systolic)} mmHg (≤ 90)`,
    pulse !== undefined && pulse > 130 && `heart rate ${fmt(pulse)} /min (> 130)`,
    spo2 !== undefined && o.onOxygen === true && spo2 <= target && `SpO2 ${fmt(spo2)} % on oxygen (not above ${target} %)`,
    spo2 !== undefined &&
      o.onOxygen !== true &&
      spo2 < 92 &&
      `SpO2 ${fmt(spo2)} %${o.onOxygen === false ? ' on air' : ''} (< 92)`,
    altered && `altered mental state (ACVPU ${o.consciousness})`,
    celsius !== undefined && celsius < 36 && `temperature ${fmt(celsius)} °C (< 36)`,
  ].filter((c): c is string => !!c);
  const qsofa = [
    rr !== undefined && rr >= 22 && `respiratory rate ${fmt(rr)} /min (≥ 22)`,
    altered && 'altered mentation',
    systolic !== undefined && systolic <= 100 && `systolic ${fmt(systolic)} mmHg (≤ 100)`,
  ].filter((c): c is string => !!c);
  if (ng51.length === 0 && qsofa.length < 2) return undefined;
  const parts = [
    ng51.length ? `NICE NG51 high-risk criteria: ${ng51.join(', ')}` : '',
    qsofa.length >= 2 ? `qSOFA ${qsofa.length}/3: ${qsofa.join(', ')}` : '',
  ].filter(Boolean);
  const why = fever ? 'fever' : word ? `infection suggested: “${word}”` : `antibiotic prescribed: ${antibiotic}`;
  return finding(
    'emergency',
    'sepsis',
    'Possible sepsis',
    `${parts.join('; ')} (${why}): assess for sepsis now`,
    `${SRC.ng51}; ${SRC.qsofa}`,
  );
}

function bloodPressureFindings(o: RecordObservations): Found[] {
  if (o.bp.status !== 'ok') return [];
  const { systolic: s, diastolic: d } = o.bp.value;
  if (bpCategory(s, d) === 'hypertensive crisis')
    return [
      finding(
        'urgent',
        'blood-pressure',
        `Blood pressure ${fmt(s)}/${fmt(d)} mmHg`,
        'reading in the hypertensive crisis range (above 180 and/or 120; one reading; confirm on repeat): assess now for acute target-organ damage',
        SRC.acc,
      ),
    ];
  return [];
}

/** A reading that could not be used: said, and re-measuring asked for — never silently dropped. */
function dataQuality(o: RecordObservations): Found[] {
  const out: Found[] = [];
  // every declared vital sign that is typed (a choice cannot be mistyped), by its label
  const readings: [string, { status: string; raw?: string; reason?: string; why?: string }][] = vitalSigns()
    .filter((v) => v.kind !== 'choice')
    .map((v) => [v.label, o.readings.get(v.key)!.reading]);
  for (const [label, r] of readings) {
    if (r.status === 'implausible')
      out.push(
        finding(
          'review',
          'data-quality',
          `Implausible ${labelInSentence(label)} “${r.raw}”`,
          `${r.reason}, not scored: re-measure and correct the record`,
          SRC.data,
        ),
      );
    else if (r.status === 'unreadable')
      out.push(
        finding(
          'review',
          'data-quality',
          `${label} “${r.raw}” not interpreted`,
          'not scored: re-measure and correct the record',
          SRC.data,
        ),
      );
    else if (r.status === 'not-interpreted' && !/^(?:lo|low|hi|high)$/i.test(r.raw?.trim() ?? ''))
      out.push(
        finding(
          'review',
          'data-quality',
          `${label} “${r.raw}” not interpreted`,
          `${r.why}: not flagged; record the value with its unit`,
          SRC.data,
        ),
      );
  }
  return out;
}

/** Texts that differ only in case, punctuation or spacing count once; empty ones go. */
export function distinctTexts(texts: string[]): string[] {
  const seen = new Set<string>();
  return texts.filter((t) => {
    const key = normalise(t);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Every drug against every allergy entry, and each pair of drugs once for interactions
 * (duplicates by severity and message dropped).
 */
export function medicationFindings(drugs: string[], allergies: AllergyEntry[]): MedicationAlert[] {
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

const MEDICATION_TITLE: Record<MedicationAlert['kind'], string> = {
  allergy: 'Drug–allergy alert',
  'cross-reactivity': 'Drug–allergy cross-reactivity',
  intolerance: 'Drug intolerance',
  interaction: 'Drug–drug interaction',
};

/** The age on the day of admission: from the date of birth on file now, else the record's snapshot. */
export function ageAtAdmission(r: MedicalRecord, dob: string | null | undefined): Age | null {
  return (dob ? ageOn(dob, r.biodata.dateOfAdmission.slice(0, 10)) : null) ?? r.biodata.age ?? null;
}

/** The assessment of one record in its context. Pure: same inputs, same assessment. */
export function assessRecord(r: MedicalRecord, ctx: AssessmentContext): Assessment {
  const o = recordObservations(r);
  const age = ageAtAdmission(r, ctx.dob);
  const caveats: string[] = [];
  const findings: Found[] = [];
  const hasVitals =
    o.news2.subScores.length > 0 || [o.bp, o.pulse, o.rr, o.spo2, o.temp, o.sugar].some((x) => x.status !== 'missing');

  // Context adds caution; it never removes an alert (api/CLINICAL.md, hazard H5).
  const underSixteen = !!age && age.years < 16;
  if (!age) caveats.push('Age unknown — adult NEWS2 used.');
  if (underSixteen)
    caveats.push(
      'NEWS2 is not validated under 16; use a paediatric early-warning score. Critical values still apply; adult reference ranges and sepsis criteria may not.',
    );
  const pregnant = ctx.pregnancy?.status === 'pregnant';
  if (pregnant)
    caveats.push(
      `NEWS2 is not validated in pregnancy${ctx.pregnancy?.gestationWeeks ? ` (${ctx.pregnancy.gestationWeeks} weeks)` : ''} — use an obstetric early-warning chart (MEOWS).`,
    );

  const drugs = distinctTexts([r.treatment?.prescribedDrug ?? '', ...(ctx.otherDrugs ?? [])]);
  const sepsis = sepsisScreen(r, o, drugs);
  if (sepsis) findings.push(sepsis);
  findings.push(...criticalValues(o));
  if (hasVitals) findings.push(...news2Findings(o, !underSixteen));
  // A child's vital signs are never "nothing found": no adult tier, but a paediatric score is due —
  // urgently when the adult chart would already call for an urgent response (fail safe).
  if (hasVitals && underSixteen)
    findings.push(
      finding(
        o.news2.total >= 5 ? 'urgent' : 'review',
        'news2',
        'Under 16: score with a paediatric early-warning chart',
        'the adult early-warning score is not validated under 16; these vital signs have not been scored for a child',
        'RCP 2017 (adults only); NHS England PEWS',
      ),
    );
  findings.push(...bloodPressureFindings(o), ...dataQuality(o));

  const allergies = ctx.allergyEntries ?? (ctx.allergyNotes ?? []).flatMap(readAllergyText);
  const medication = medicationFindings(drugs, allergies);
  for (const a of medication)
    findings.push(
      finding(
        a.severity === 'stop' ? 'urgent' : 'review',
        'medication',
        `${MEDICATION_TITLE[a.kind]} (${a.severity})`,
        a.message,
        a.source,
      ),
    );

  // A drug the vocabulary does not know was checked against nothing: say so, never look "clear".
  for (const drug of drugs.filter(uncodedDrug))
    findings.push(
      finding(
        'review',
        'medication',
        'Not checked: drug not recognised',
        `“${drug}” was not recognised: allergy and interaction checks were not performed for it`,
        `CareLoop substance vocabulary ${VOCABULARY_VERSION}`,
      ),
    );

  findings.sort((a, b) => RANK[b.acuity] - RANK[a.acuity]);
  const acuity = highestAcuity(findings.map((f) => f.acuity));
  const score = o.news2;
  const observedAt = r.examination.generalPhysicalExamination.observedAt?.trim() || null;
  return {
    acuity,
    reasons: findings.filter((f) => f.acuity !== 'none').map((f) => f.title),
    findings,
    caveats,
    news2: hasVitals
      ? {
          total: score.total,
          complete: score.complete,
          singleParameterThree: score.singleParameterThree,
          ...(score.complete ? { band: score.band } : {}),
          missing: score.missing,
          // under 16 the adult tier is not shown (caveat above)
          applicable: !underSixteen,
        }
      : null,
    medicationAlerts: medication,
    hasVitals,
    observedAt,
    computedAt: ctx.computedAt.toISOString(),
    contextVersion: ctx.contextVersion,
  };
}
