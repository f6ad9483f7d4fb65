import type { Acuity, AssessmentFinding, MedicalRecord } from '@careloop/shared-contracts';
import { acuityRank, highestAcuity } from './assessment';
import type { News2Result } from './news2';

/*
 * The doctor's worklist order: which assigned patient to look at first.
 *
 * Source: RCP. National Early Warning Score (NEWS) 2, 2017: Chart 3 (trigger thresholds: aggregate
 * 7+ high, 5–6 medium, a single parameter scoring 3 low-medium, 0–4 low) and Chart 4 (the urgency
 * of the clinical response to each). The worklist ranks by that urgency, highest first.
 *
 * First by ACUITY (assessment.ts: critical values and possible sepsis are emergencies whatever the
 * score) of the patient's latest observation set and latest record — a record without vital signs
 * never replaces the last vitals — then by NEWS2 as below.
 *
 * Rule of the house: when unsure what is clinically safe, choose the behaviour that cannot hide a
 * sick patient. So:
 * - An INCOMPLETE score is a lower bound ("at least N"): it takes the level of N, never lower than
 *   low-medium (a missing parameter is unknown, not normal, and all but air/oxygen can score 3 on
 *   their own), and on an equal total it ranks above a complete score. It therefore never sorts
 *   below a complete score of the same or a lower total.
 * - A single parameter scoring 3 ranks above a plain low score (Chart 4: low-medium, urgent
 *   ward-based response), even when the low score's total is higher.
 * - A patient with NO RECORD is unknown, not low: scored as an incomplete "at least 0" (nothing
 *   measured). They rank above every complete low score — no assessment is no reassurance — and
 *   below a patient with a known urgent score, whose need for action is certain.
 * - Ties: the most recent record first (the newer reading is the better picture of now); no record
 *   after a record; then by name and id, so the order is stable.
 */

/** Chart 3's trigger levels, as ranks: higher is more urgent. */
const LEVEL = { low: 0, lowMedium: 1, medium: 2, high: 3 } as const;

/** What the order reads of a patient's latest record; null when they have none. */
export interface WorklistScore {
  news2: Pick<News2Result, 'complete' | 'total' | 'singleParameterThree'>;
  recordedAt: Date;
}

export interface WorklistEntry {
  name: string;
  id: string;
  /** the row's acuity (patientAcuity); 'review' when absent */
  acuity?: Acuity;
  latest: WorklistScore | null;
}

/** Chart 3 level of a score; an incomplete (or absent) one is at least low-medium. */
export function riskLevel(latest: WorklistScore | null): number {
  if (!latest) return LEVEL.lowMedium;
  const { complete, total, singleParameterThree } = latest.news2;
  const level = total >= 7 ? LEVEL.high : total >= 5 ? LEVEL.medium : singleParameterThree ? LEVEL.lowMedium : LEVEL.low;
  return complete ? level : Math.max(level, LEVEL.lowMedium);
}

/** Negative when `a` comes before `b` on the worklist (the most urgent first). */
export function compareRisk(a: WorklistEntry, b: WorklistEntry): number {
  const byAcuity = acuityRank(b.acuity ?? 'review') - acuityRank(a.acuity ?? 'review');
  if (byAcuity) return byAcuity;
  const byLevel = riskLevel(b.latest) - riskLevel(a.latest);
  if (byLevel) return byLevel;
  const totalOf = (e: WorklistEntry) => e.latest?.news2.total ?? 0;
  const byTotal = totalOf(b) - totalOf(a);
  if (byTotal) return byTotal;
  // On an equal total a lower bound may be higher: incomplete (and no record) before complete.
  const completeOf = (e: WorklistEntry) => (e.latest?.news2.complete ? 1 : 0);
  const byCompleteness = completeOf(a) - completeOf(b);
  if (byCompleteness) return byCompleteness;
  const timeOf = (e: WorklistEntry) => e.latest?.recordedAt.getTime() ?? -Infinity;
  const byTime = timeOf(b) - timeOf(a);
  if (byTime) return byTime > 0 ? 1 : -1;
  return a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The entries in worklist order (a new array). */
export function worklistOrder<T extends WorklistEntry>(entries: readonly T[]): T[] {
  return [...entries].sort(compareRisk);
}

/**
 * The change of NEWS2 since the previous record: latest total − previous total, or null when there
 * is no previous record or either score is incomplete. A difference of lower bounds is no measured
 * change ("at least 3" then "at least 3" may be 3 then 9), so none is claimed; the score itself
 * still shows and ranks as a lower bound.
 */
export function news2Change(
  latest: Pick<News2Result, 'complete' | 'total'> | null,
  previous: Pick<News2Result, 'complete' | 'total'> | null,
): number | null {
  if (!latest || !previous || !latest.complete || !previous.complete) return null;
  return latest.total - previous.total;
}

/** A patient's row on the worklist, read from their recent records' assessments (newest first). */
export interface PatientAcuity {
  acuity: Acuity;
  reasons: string[];
  /** the latest record with a vital sign, and the one before it */
  lastVitals?: MedicalRecord;
  previousVitals?: MedicalRecord;
}

const NO_VITALS: Pick<AssessmentFinding, 'acuity' | 'title'> = { acuity: 'review', title: 'No vital signs recorded' };

/**
 * The row's acuity and reasons: the findings of the latest observation set, with those of a later
 * record without vitals (a medication alert, say) added — never in place of them. No vitals at all
 * is a reason to review, not reassurance.
 */
export function patientAcuity(records: readonly MedicalRecord[]): PatientAcuity {
  const [lastVitals, previousVitals] = records.filter((r) => r.assessment.hasVitals);
  const latest = records[0];
  const findings: Pick<AssessmentFinding, 'acuity' | 'title'>[] = [
    ...(lastVitals?.assessment.findings ?? []),
    ...(latest && latest !== lastVitals ? latest.assessment.findings : []),
    ...(lastVitals ? [] : [NO_VITALS]),
  ];
  const ranked = findings.filter((f) => f.acuity !== 'none').sort((x, y) => acuityRank(y.acuity) - acuityRank(x.acuity));
  return {
    acuity: highestAcuity(ranked.map((f) => f.acuity)),
    reasons: [...new Set(ranked.map((f) => f.title))],
    lastVitals,
    previousVitals,
  };
}
