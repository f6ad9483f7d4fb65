import {
  AllergyIdParams,
  AllergyIntoleranceCreate,
  AllergyList,
  AllergyReport,
  SubstanceSuggestionQuery,
  SubstanceSuggestions,
} from '../allergies';
import { endpoint } from '../endpoint';
import { AllergyIntolerance, AllergyIntoleranceWrite } from '../medication-safety';
import { PatientIdParams } from '../records';

/** A patient's allergy list (api/src/modules/allergies). */
export const ALLERGY_ENDPOINTS = {
  listAllergies: endpoint({
    method: 'GET',
    path: '/allergies/{patientId}',
    summary: "A patient's allergies: structured entries and unreviewed free-text ones (the patient, or an assigned doctor)",
    tags: ['allergies'],
    access: ['patient', 'doctor'],
    params: PatientIdParams,
    status: 200,
    response: AllergyList,
    errors: [400, 401, 403, 404],
  }),
  createAllergy: endpoint({
    method: 'POST',
    path: '/allergies/{patientId}',
    summary: 'Add an allergy, or review a free-text note with `reviews` (assigned doctor)',
    description:
      'The substance is coded from the vocabulary by the api. Reviewing a note that names several substances also keeps the others, as unconfirmed entries.',
    tags: ['allergies'],
    access: ['doctor'],
    params: PatientIdParams,
    body: AllergyIntoleranceCreate,
    status: 201,
    response: AllergyIntolerance,
    errors: [400, 401, 403, 404, 409],
  }),
  updateAllergy: endpoint({
    method: 'PUT',
    path: '/allergy/{id}',
    summary: 'Edit, confirm or refute (delabel) an allergy entry (assigned doctor); who recorded it and when stay',
    tags: ['allergies'],
    access: ['doctor'],
    params: AllergyIdParams,
    body: AllergyIntoleranceWrite,
    status: 200,
    response: AllergyIntolerance,
    errors: [400, 401, 403, 404],
  }),
  reportAllergy: endpoint({
    method: 'POST',
    path: '/patient/allergies',
    summary: 'Report an allergy of your own (patient); it stays unconfirmed until a doctor confirms it',
    tags: ['allergies'],
    access: ['patient'],
    body: AllergyReport,
    status: 201,
    response: AllergyIntolerance,
    errors: [400, 401, 403],
  }),
  suggestAllergySubstances: endpoint({
    method: 'GET',
    path: '/allergy-substances',
    summary: "Substance names from the api's vocabulary for an allergy form (no patient data)",
    tags: ['allergies'],
    access: ['patient', 'doctor'],
    query: SubstanceSuggestionQuery,
    status: 200,
    response: SubstanceSuggestions,
    errors: [400, 401, 403],
  }),
};
