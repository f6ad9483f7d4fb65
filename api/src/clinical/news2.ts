/*
 * NEWS2: Royal College of Physicians. National Early Warning Score (NEWS) 2: Standardising the
 * assessment of acute-illness severity in the NHS. Updated report of a working party. London: RCP, 2017.
 * Chart 1 (scoring) and Charts 2–3 (thresholds, triggers and clinical response).
 *
 * The record holds only four of the seven parameters (no SpO2, air/oxygen or consciousness), so
 * every total here is PARTIAL: a lower bound of the real score. The three absent parameters can add
 * up to 8 points (SpO2 3, supplemental oxygen 2, new confusion/V/P/U 3).
 */

export type News2Parameter = 'respirationRate' | 'systolicBP' | 'pulse' | 'temperature';

export const NEWS2_PARAMETERS: readonly News2Parameter[] = ['respirationRate', 'systolicBP', 'pulse', 'temperature'];

export const NEWS2_LABELS: Record<News2Parameter, { label: string; unit: string }> = {
  respirationRate: { label: 'Respiration rate', unit: '/min' },
  systolicBP: { label: 'Systolic blood pressure', unit: 'mmHg' },
  pulse: { label: 'Pulse', unit: '/min' },
  temperature: { label: 'Temperature', unit: '°C' },
};

/** The parameters NEWS2 needs that a CareLoop record never holds. */
export const NEWS2_NOT_IN_RECORD = ['SpO2', 'air or oxygen', 'consciousness'] as const;

/** Points the absent parameters can add at most (RCP 2017 chart 1). */
export const NEWS2_MAX_UNSCORED_POINTS = 8;

/**
 * RCP 2017 chart 1, as upper bounds of each band: a value scores the points of the first band whose
 * upper bound it does not exceed. The chart's bands are in whole units (0.1 °C for temperature);
 * reading them as upper bounds also places in-between values (20.5 /min, 38.05 °C) in the next band.
 */
const BANDS: Record<News2Parameter, readonly (readonly [upTo: number, points: number])[]> = {
  // ≤8 → 3; 9–11 → 1; 12–20 → 0; 21–24 → 2; ≥25 → 3
  respirationRate: [
    [8, 3],
    [11, 1],
    [20, 0],
    [24, 2],
    [Infinity, 3],
  ],
  // ≤90 → 3; 91–100 → 2; 101–110 → 1; 111–219 → 0; ≥220 → 3
  systolicBP: [
    [90, 3],
    [100, 2],
    [110, 1],
    [219, 0],
    [Infinity, 3],
  ],
  // ≤40 → 3; 41–50 → 1; 51–90 → 0; 91–110 → 1; 111–130 → 2; ≥131 → 3
  pulse: [
    [40, 3],
    [50, 1],
    [90, 0],
    [110, 1],
    [130, 2],
    [Infinity, 3],
  ],
  // ≤35.0 → 3; 35.1–36.0 → 1; 36.1–38.0 → 0; 38.1–39.0 → 1; ≥39.1 → 2
  temperature: [
    [35.0, 3],
    [36.0, 1],
    [38.0, 0],
    [39.0, 1],
    [Infinity, 2],
  ],
};

/** The NEWS2 points (0–3) of one parameter. The value must already be plausible (see vitals.ts). */
export function news2SubScore(parameter: News2Parameter, value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`NEWS2 ${parameter}: not a number (${value})`);
  const bands = BANDS[parameter];
  if (!bands) throw new RangeError(`NEWS2: unknown parameter ${String(parameter)}`);
  return bands.find(([upTo]) => value <= upTo)![1];
}

export type News2Band = 'low' | 'low-medium' | 'medium' | 'high';

export interface News2SubScore {
  parameter: News2Parameter;
  value: number;
  score: number;
}

export interface News2Result {
  /** the sum of the scored parameters */
  total: number;
  /** true when any NEWS2 parameter was not scored (always, for a CareLoop record) */
  partial: boolean;
  subScores: News2SubScore[];
  /** the record's parameters that could not be scored (missing or implausible) */
  unscored: News2Parameter[];
  /** the parameters the record never holds */
  notInRecord: readonly string[];
  /** some parameter scored 3 */
  singleParameterThree: boolean;
  band: News2Band;
  /** RCP 2017 chart 3: the clinical response and minimum monitoring frequency */
  response: string;
}

export type News2Vitals = Partial<Record<News2Parameter, number | null>>;

/** RCP 2017 chart 3, "clinical response to NEWS trigger thresholds". */
export function news2Band(total: number, singleParameterThree: boolean): { band: News2Band; response: string } {
  if (total >= 7) {
    return {
      band: 'high',
      response:
        'emergency response: emergency assessment by a clinical team with critical-care competencies, usually with transfer to a higher level of care; continuous monitoring of vital signs',
    };
  }
  if (total >= 5) {
    return {
      band: 'medium',
      response:
        'key threshold for urgent response: urgent review by a clinician competent in assessing acutely ill patients; minimum 1-hourly monitoring',
    };
  }
  if (singleParameterThree) {
    return {
      band: 'low-medium',
      response:
        'urgent ward-based response: the registered nurse informs the medical team caring for the patient, who review and decide whether escalation is needed; minimum 1-hourly monitoring',
    };
  }
  if (total >= 1) {
    return {
      band: 'low',
      response:
        'ward-based response: inform the registered nurse, who assesses the patient and decides whether monitoring should increase or care be escalated; minimum 4–6-hourly monitoring',
    };
  }
  return { band: 'low', response: 'routine NEWS monitoring, minimum 12-hourly' };
}

/** Score the parameters given; absent (null/undefined/non-finite) ones are listed as unscored. */
export function news2(vitals: News2Vitals): News2Result {
  const subScores: News2SubScore[] = [];
  const unscored: News2Parameter[] = [];
  for (const parameter of NEWS2_PARAMETERS) {
    const value = vitals[parameter];
    if (typeof value === 'number' && Number.isFinite(value))
      subScores.push({ parameter, value, score: news2SubScore(parameter, value) });
    else unscored.push(parameter);
  }
  const total = subScores.reduce((sum, s) => sum + s.score, 0);
  const singleParameterThree = subScores.some((s) => s.score === 3);
  return {
    total,
    partial: true,
    subScores,
    unscored,
    notInRecord: NEWS2_NOT_IN_RECORD,
    singleParameterThree,
    ...news2Band(total, singleParameterThree),
  };
}
