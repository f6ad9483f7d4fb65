import { news2Measure, News2ParameterName } from '@careloop/shared-contracts';

/*
 * NEWS2: Royal College of Physicians. National Early Warning Score (NEWS) 2: Standardising the
 * assessment of acute-illness severity in the NHS. Updated report of a working party. London: RCP, 2017.
 * Chart 1 (the scoring system, SpO2 scales 1 and 2), Chart 3 (thresholds and triggers) and
 * Chart 4 (clinical response to the trigger thresholds).
 *
 * All seven parameters are scored when present. With any missing the result is INCOMPLETE: its
 * total is a lower bound ("at least N") and it has no band or response — a partial score must not
 * read as reassurance.
 */

/** The seven parameters, named as shared-contracts declares them (each by one vital sign of VITAL_SIGNS). */
export type News2Parameter = News2ParameterName;

/** Chart 1's order. */
export const NEWS2_PARAMETERS: readonly News2Parameter[] = News2ParameterName.options;

/**
 * Each parameter's label and unit: those of the vital sign declared as it (shared-contracts
 * VITAL_SIGNS), so a sub-score reads as the record does ("Respiratory rate 22 /min: 2").
 */
export const NEWS2_LABELS: Record<News2Parameter, { label: string; unit: string }> = Object.fromEntries(
  NEWS2_PARAMETERS.map((p) => [p, news2Measure(p)]),
) as Record<News2Parameter, { label: string; unit: string }>;

export type Consciousness = 'A' | 'C' | 'V' | 'P' | 'U';
export type Spo2Scale = 1 | 2;

type Bands = readonly (readonly [upTo: number, points: number])[];

/**
 * RCP 2017 Chart 1, as upper bounds of each band: a value scores the points of the first band whose
 * upper bound it does not exceed. The chart's bands are in whole units (0.1 °C for temperature);
 * reading them as upper bounds also places in-between values (20.5 /min, 38.05 °C) in the next band.
 */
const BANDS = {
  // Chart 1 respiration rate: ≤8 → 3; 9–11 → 1; 12–20 → 0; 21–24 → 2; ≥25 → 3
  respirationRate: [
    [8, 3],
    [11, 1],
    [20, 0],
    [24, 2],
    [Infinity, 3],
  ],
  // Chart 1 SpO2 scale 1: ≤91 → 3; 92–93 → 2; 94–95 → 1; ≥96 → 0
  spo2Scale1: [
    [91, 3],
    [93, 2],
    [95, 1],
    [Infinity, 0],
  ],
  // Chart 1 SpO2 scale 2 on air: ≤83 → 3; 84–85 → 2; 86–87 → 1; ≥88 → 0 (88–92, and ≥93 on air)
  spo2Scale2Air: [
    [83, 3],
    [85, 2],
    [87, 1],
    [Infinity, 0],
  ],
  // Chart 1 SpO2 scale 2 on oxygen: as on air up to 92; 93–94 → 1; 95–96 → 2; ≥97 → 3
  spo2Scale2Oxygen: [
    [83, 3],
    [85, 2],
    [87, 1],
    [92, 0],
    [94, 1],
    [96, 2],
    [Infinity, 3],
  ],
  // Chart 1 systolic blood pressure: ≤90 → 3; 91–100 → 2; 101–110 → 1; 111–219 → 0; ≥220 → 3
  systolicBP: [
    [90, 3],
    [100, 2],
    [110, 1],
    [219, 0],
    [Infinity, 3],
  ],
  // Chart 1 pulse: ≤40 → 3; 41–50 → 1; 51–90 → 0; 91–110 → 1; 111–130 → 2; ≥131 → 3
  pulse: [
    [40, 3],
    [50, 1],
    [90, 0],
    [110, 1],
    [130, 2],
    [Infinity, 3],
  ],
  // Chart 1 temperature: ≤35.0 → 3; 35.1–36.0 → 1; 36.1–38.0 → 0; 38.1–39.0 → 1; ≥39.1 → 2
  temperature: [
    [35.0, 3],
    [36.0, 1],
    [38.0, 0],
    [39.0, 1],
    [Infinity, 2],
  ],
} satisfies Record<string, Bands>;

const points = (bands: Bands, value: number, what: string) => {
  if (!Number.isFinite(value)) throw new RangeError(`NEWS2 ${what}: not a number (${value})`);
  return bands.find(([upTo]) => value <= upTo)![1];
};

export type NumericNews2Parameter = 'respirationRate' | 'systolicBP' | 'pulse' | 'temperature';

/** The NEWS2 points (0–3) of one numeric parameter. The value must already be plausible (see vitals.ts). */
export function news2SubScore(parameter: NumericNews2Parameter, value: number): number {
  const bands = (BANDS as Record<string, Bands>)[parameter];
  if (!bands || !['respirationRate', 'systolicBP', 'pulse', 'temperature'].includes(parameter))
    throw new RangeError(`NEWS2: unknown parameter ${String(parameter)}`);
  return points(bands, value, parameter);
}

/**
 * Chart 1 SpO2 points. Scale 2's upper rows depend on air or oxygen: with oxygen unknown a scale-2
 * saturation ≥ 93 % cannot be scored (undefined); below 93 % both rows agree.
 */
export function spo2SubScore(spo2: number, scale: Spo2Scale, onOxygen: boolean | null | undefined): number | undefined {
  if (scale === 1) return points(BANDS.spo2Scale1, spo2, 'SpO2');
  if (onOxygen === true) return points(BANDS.spo2Scale2Oxygen, spo2, 'SpO2');
  if (onOxygen === false || spo2 <= 92) return points(BANDS.spo2Scale2Air, spo2, 'SpO2');
  return undefined;
}

/** Chart 1: oxygen 2, air 0. */
export const oxygenSubScore = (onOxygen: boolean) => (onOxygen ? 2 : 0);
/** Chart 1: alert 0; new confusion, voice, pain or unresponsive 3. */
export const consciousnessSubScore = (c: Consciousness) => (c === 'A' ? 0 : 3);

export type News2Band = 'low' | 'low-medium' | 'medium' | 'high';

export interface News2SubScore {
  parameter: News2Parameter;
  /** the value as the summary shows it ("96 % (scale 1)", "Air", "A") */
  value: string;
  score: number;
}

export interface News2Vitals {
  respirationRate?: number | null;
  oxygenSaturation?: number | null;
  spo2Scale?: Spo2Scale | null;
  supplementalOxygen?: boolean | null;
  systolicBP?: number | null;
  pulse?: number | null;
  consciousness?: Consciousness | null;
  temperature?: number | null;
}

export type News2Result =
  | {
      complete: true;
      total: number;
      subScores: News2SubScore[];
      missing: [];
      singleParameterThree: boolean;
      band: News2Band;
      /** RCP 2017 Chart 4: the clinical response and minimum monitoring frequency */
      response: string;
    }
  | {
      complete: false;
      /** the sum of the scored parameters: the full score is at least this */
      total: number;
      subScores: News2SubScore[];
      /** the parameters not scored (absent, implausible or unreadable) */
      missing: News2Parameter[];
      singleParameterThree: boolean;
    };

/** RCP 2017 Chart 3 (trigger thresholds) and Chart 4 (clinical response). Only for a complete score. */
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

/** The highest aggregate score: 3 for each parameter, 2 for oxygen (RCP 2017 Chart 1). */
export const NEWS2_MAX = 20;

/**
 * RCP 2017 Chart 3: the risk bands of the aggregate score, for shading a trend: 0–4 low, 5–6
 * medium, 7 or more high. (A single parameter scoring 3 also raises a low total to low–medium:
 * that is a property of one score, read from its record, not a band of the total.)
 */
export const NEWS2_RISK_BANDS = [
  { band: 'low', low: 0, high: 4 },
  { band: 'medium', low: 5, high: 6 },
  { band: 'high', low: 7, high: NEWS2_MAX },
] as const;

const fmt = (n: number) => String(Math.round(n * 10) / 10);
const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** Score the parameters given; absent (null/undefined/non-finite) ones are listed as missing. */
export function news2(v: News2Vitals): News2Result {
  const subScores: News2SubScore[] = [];
  const missing: News2Parameter[] = [];
  const numeric = (parameter: NumericNews2Parameter, value: number | null | undefined) => {
    const { unit } = NEWS2_LABELS[parameter];
    if (finite(value)) subScores.push({ parameter, value: `${fmt(value)} ${unit}`, score: news2SubScore(parameter, value) });
    else missing.push(parameter);
  };
  numeric('respirationRate', v.respirationRate);
  if (finite(v.oxygenSaturation)) {
    const scale: Spo2Scale = v.spo2Scale === 2 ? 2 : 1;
    const score = spo2SubScore(v.oxygenSaturation, scale, v.supplementalOxygen);
    if (score === undefined) missing.push('oxygenSaturation');
    else
      subScores.push({
        parameter: 'oxygenSaturation',
        value: `${fmt(v.oxygenSaturation)} ${NEWS2_LABELS.oxygenSaturation.unit} (scale ${scale})`,
        score,
      });
  } else missing.push('oxygenSaturation');
  if (typeof v.supplementalOxygen === 'boolean')
    subScores.push({
      parameter: 'supplementalOxygen',
      value: v.supplementalOxygen ? 'oxygen' : 'air',
      score: oxygenSubScore(v.supplementalOxygen),
    });
  else missing.push('supplementalOxygen');
  numeric('systolicBP', v.systolicBP);
  numeric('pulse', v.pulse);
  if (v.consciousness && ['A', 'C', 'V', 'P', 'U'].includes(v.consciousness))
    subScores.push({ parameter: 'consciousness', value: v.consciousness, score: consciousnessSubScore(v.consciousness) });
  else missing.push('consciousness');
  numeric('temperature', v.temperature);

  const total = subScores.reduce((sum, s) => sum + s.score, 0);
  const singleParameterThree = subScores.some((s) => s.score === 3);
  if (missing.length) return { complete: false, total, subScores, missing, singleParameterThree };
  return { complete: true, total, subScores, missing: [], singleParameterThree, ...news2Band(total, singleParameterThree) };
}
