import type { FhirType } from '@careloop/shared-contracts';
import type { AuditEntity, FhirRowKind } from '../access';

/** The app's entity a resource type is read from: its audit rows name it. */
export const ENTITY_OF: Record<FhirType, AuditEntity | null> = {
  Patient: null,
  Practitioner: null,
  Encounter: 'medical_record',
  Observation: 'medical_record',
  Composition: 'medical_record',
  RiskAssessment: 'medical_record',
  AllergyIntolerance: 'allergy_intolerance',
  MedicationRequest: 'prescription',
  DocumentReference: 'medical_file',
};

/** The audit list row of a type: the profile for Patient, the care team (connections) for Practitioner. */
export const LISTED_AS: Record<FhirType, AuditEntity> = {
  ...(ENTITY_OF as Record<FhirType, AuditEntity>),
  Patient: 'account',
  Practitioner: 'assignment',
};

/** The rows a type's resources are made from (the patient's own row always comes). */
export const ROWS_OF: Record<FhirType, FhirRowKind[]> = {
  Patient: [],
  Practitioner: ['doctors'],
  Encounter: ['records'],
  Observation: ['records'],
  Composition: ['records'],
  RiskAssessment: ['records'],
  AllergyIntolerance: ['allergies'],
  MedicationRequest: ['prescriptions'],
  DocumentReference: ['files'],
};
