import type { CodeableConcept, RiskAssessment } from '@medplum/fhirtypes';
import type { Acuity } from '@careloop/shared-contracts';
import type { PatientRows } from '../access';
import { ACUITY_TEXT } from '../clinical';

/*
 * A record's clinical assessment as a RiskAssessment: the one stored assessment, as the access
 * layer brought it up to date (withCurrentAssessments), never recomputed here (hazard H26). One
 * prediction per finding, most urgent first as the assessment orders them, so the first one is
 * the record's acuity; none when nothing was found. Caveats are notes. Id `<record id>-assessment`.
 */

type RecordRow = PatientRows['records'][number];

export const RISK_PROBABILITY = 'http://terminology.hl7.org/CodeSystem/risk-probability';

/** The acuity as FHIR's qualitative risk (emergency and urgent alike 'high'); the acuity word as its text. */
const RISK: Record<Acuity, { code: string; display: string }> = {
  emergency: { code: 'high', display: 'High likelihood' },
  urgent: { code: 'high', display: 'High likelihood' },
  review: { code: 'moderate', display: 'Moderate likelihood' },
  none: { code: 'low', display: 'Low likelihood' },
};

export const qualitativeRisk = (acuity: Acuity): CodeableConcept => ({
  coding: [{ system: RISK_PROBABILITY, ...RISK[acuity] }],
  text: ACUITY_TEXT[acuity],
});

export const riskAssessmentId = (recordId: string) => `${recordId}-assessment`;

/** The record's stored assessment as a RiskAssessment (null for a row not yet assessed). */
export function toRiskAssessment(r: RecordRow): RiskAssessment | null {
  const a = r.assessment;
  if (!a) return null;
  return {
    resourceType: 'RiskAssessment',
    id: riskAssessmentId(r.id),
    status: 'final',
    code: { text: 'CareLoop clinical assessment' },
    subject: { reference: `Patient/${r.patientId}` },
    encounter: { reference: `Encounter/${r.id}` },
    occurrenceDateTime: a.computedAt,
    ...(a.findings.length
      ? {
          prediction: a.findings.map((f) => ({
            outcome: { text: f.title },
            qualitativeRisk: qualitativeRisk(f.acuity),
            rationale: `${f.detail} (${f.source})`,
          })),
        }
      : {}),
    ...(a.caveats.length ? { note: a.caveats.map((text) => ({ text })) } : {}),
  };
}
