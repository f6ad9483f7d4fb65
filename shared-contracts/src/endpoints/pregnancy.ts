import { Pregnancy } from '../assessment';
import { endpoint } from '../endpoint';
import { PatientIdParams } from '../records';

/** A patient's pregnancy status: NEWS2 is not validated in pregnancy, so the assessment says so. */
export const PREGNANCY_ENDPOINTS = {
  getPregnancy: endpoint({
    method: 'GET',
    path: '/pregnancy/{patientId}',
    summary: "A patient's pregnancy status (the patient, or an assigned doctor); unknown until a doctor sets it",
    tags: ['records'],
    access: ['patient', 'doctor'],
    params: PatientIdParams,
    status: 200,
    response: Pregnancy,
    errors: [400, 401, 403, 404],
  }),
  setPregnancy: endpoint({
    method: 'PUT',
    path: '/pregnancy/{patientId}',
    summary: "Set a patient's pregnancy status and gestation (assigned doctor); their records are assessed again",
    tags: ['records'],
    access: ['doctor'],
    params: PatientIdParams,
    body: Pregnancy,
    status: 200,
    response: Pregnancy,
    errors: [400, 401, 403, 404],
  }),
};
