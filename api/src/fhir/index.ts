// FHIR R4 (issue 15): pure mappings from CareLoop's rows to resources, searches, and the patient's $everything.
export { patientEverything, resourcesOf, searchset, EVERYTHING_AUDIT, type FhirContext } from './everything';
export { binaryFile, capabilityStatement, notFound, operationOutcome, readResource, searchResources } from './search';
export { acceptsFhirJson, binaryAnswer, JSON_ONLY } from './format';
export * from './resources';
export * from './documents';
export { qualitativeRisk, RISK_PROBABILITY, riskAssessmentId, toRiskAssessment } from './assessment';
export { clinicTimeToInstant, LOINC, LOINC_CODES, recordObservationResources } from './observations';
