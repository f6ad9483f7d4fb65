import type { MedicationAlert } from '@careloop/shared-contracts';
import { medicationAlerts, readAllergyText, type AllergyEntry } from '../medication-safety';

/*
 * The measured corpus (issue 13 item 5): each case is a drug text, the patient's allergies (free-text
 * notes, read by readAllergyText, or structured entries) and active medications, with the alert
 * expected (kind and severity) or none. A positive case is found when an alert of the expected kind
 * AND severity is raised; a negative case is correct when no alert at all is raised.
 */

export interface CorpusCase {
  drug: string;
  allergies: (string | AllergyEntry)[];
  activeMedications: string[];
  expected: { kind: MedicationAlert['kind']; severity: MedicationAlert['severity'] } | null;
  /** a missed stop here would be a severe hazard: sensitivity must be 100 % */
  severe?: boolean;
  /** quoted in issue 13 */
  issue13?: boolean;
  note: string;
}

export interface CaseResult {
  case: CorpusCase;
  alerts: MedicationAlert[];
  correct: boolean;
}

export interface Rates {
  positives: number;
  negatives: number;
  truePositives: number;
  trueNegatives: number;
  /** found / positives; 1 when there are none */
  sensitivity: number;
  /** silent / negatives; 1 when there are none */
  specificity: number;
}

export interface Evaluation {
  overall: Rates;
  severe: Rates;
  /** the cases with active medications (drug–drug interactions, positive and negative) */
  interactions: Rates;
  issue13: Rates;
  misses: CaseResult[];
  falseAlarms: CaseResult[];
  results: CaseResult[];
}

export function runCase(c: CorpusCase): CaseResult {
  const allergies = c.allergies.flatMap((a) => (typeof a === 'string' ? readAllergyText(a) : [a]));
  const alerts = medicationAlerts(c.drug, { allergies, activeMedications: c.activeMedications });
  const expected = c.expected;
  const correct = expected
    ? alerts.some((a) => a.kind === expected.kind && a.severity === expected.severity)
    : alerts.length === 0;
  return { case: c, alerts, correct };
}

function rates(results: CaseResult[]): Rates {
  const positives = results.filter((r) => r.case.expected);
  const negatives = results.filter((r) => !r.case.expected);
  const truePositives = positives.filter((r) => r.correct).length;
  const trueNegatives = negatives.filter((r) => r.correct).length;
  return {
    positives: positives.length,
    negatives: negatives.length,
    truePositives,
    trueNegatives,
    sensitivity: positives.length ? truePositives / positives.length : 1,
    specificity: negatives.length ? trueNegatives / negatives.length : 1,
  };
}

export function evaluate(cases: CorpusCase[]): Evaluation {
  const results = cases.map(runCase);
  return {
    overall: rates(results),
    severe: rates(results.filter((r) => r.case.severe)),
    interactions: rates(results.filter((r) => r.case.activeMedications.length > 0)),
    issue13: rates(results.filter((r) => r.case.issue13)),
    misses: results.filter((r) => r.case.expected && !r.correct),
    falseAlarms: results.filter((r) => !r.case.expected && !r.correct),
    results,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function report(e: Evaluation): string {
  const line = (name: string, r: Rates) =>
    `${name.padEnd(11)} sensitivity ${pct(r.sensitivity)} (${r.truePositives}/${r.positives})   ${r.negatives ? `specificity ${pct(r.specificity)} (${r.trueNegatives}/${r.negatives})` : 'specificity n/a (no negative cases)'}`;
  const show = (r: CaseResult) =>
    `  - ${JSON.stringify(r.case.drug)} × ${JSON.stringify(r.case.allergies.map((a) => (typeof a === 'string' ? a : a.substance.text)))}` +
    `${r.case.activeMedications.length ? ` + ${JSON.stringify(r.case.activeMedications)}` : ''}: expected ${r.case.expected ? `${r.case.expected.severity}/${r.case.expected.kind}` : 'none'}, got ${r.alerts.map((a) => `${a.severity}/${a.kind}`).join(', ') || 'none'} (${r.case.note})`;
  return [
    `${e.results.length} cases`,
    line('overall', e.overall),
    line('severe', e.severe),
    line('interaction', e.interactions),
    line('issue 13', e.issue13),
    ...(e.misses.length ? ['misses:', ...e.misses.map(show)] : []),
    ...(e.falseAlarms.length ? ['false alarms:', ...e.falseAlarms.map(show)] : []),
  ].join('\n');
}
