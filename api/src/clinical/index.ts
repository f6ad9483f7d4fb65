// Pure clinical logic: values in, findings out. No database, Fastify or HTTP imports
// (.dependency-cruiser.cjs enforces it), so every rule is testable on its own.
export { acuityRank, ageAtAdmission, assessRecord, highestAcuity, type AssessmentContext } from './assessment';
export { ACUITY_TEXT, buildSummary, DISCLAIMER, inline, type Summary, type SummaryOptions } from './summary';
export {
  news2,
  NEWS2_LABELS,
  NEWS2_PARAMETERS,
  news2Band,
  news2SubScore,
  type News2Band,
  type News2Parameter,
  type News2Result,
} from './news2';
export {
  bpCategory,
  parseBloodPressure,
  parseBloodSugar,
  parsePulse,
  parseRespiratoryRate,
  parseTemperature,
  type BpCategory,
} from './vitals';
export { courseDaysIn, lastDayOf } from './course';
export { recordObservations, type RecordObservations } from './observations';
export { BMI_UNIT, bodyMassIndex } from './body-size';
export {
  checkMedication,
  codeSubstance,
  isSevere,
  MAX_ALERTS,
  medicationAlerts,
  readAllergyText,
  uncodedDrug,
  VOCABULARY_VERSION,
  type AllergyEntry,
  type MedicationCheck,
} from './medication-safety';
export { MAX_ENTRIES_PER_NOTE } from './allergy-text';
export { normalise } from './vocabulary';
export { suggestSubstances, type SubstanceSuggestion } from './substance-matcher';
export { INTERACTIONS } from './interactions';
export { trendPoint, vitalSignTrend } from './trends';
export {
  compareRisk,
  news2Change,
  patientAcuity,
  riskLevel,
  worklistOrder,
  type WorklistEntry,
  type WorklistScore,
} from './worklist';
export {
  addedDiagnosis,
  addedNegation,
  contradiction,
  lostFinding,
  lostNegation,
  mergeNarrative,
  NARRATIVE_PROMPT,
  NARRATIVE_SECTIONS,
  narrativeOutcome,
  NarrativeRejected,
  narrativeViolation,
  negatedFinding,
  type NarrativeOutcome,
  type NarrativeViolation,
} from './narrative-guard';
