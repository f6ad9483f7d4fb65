import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DrugAlertQuery,
  DrugAlertResponse,
  ErrorResponse,
  PageQuery,
  PatientIdParams,
  Prescription,
  PrescriptionCreate,
  PrescriptionCreated,
  PrescriptionList,
  RecordIdParams,
} from 'shared-contracts';
import { accessFor } from '../../access';
import { drugAllergyAlerts } from '../../clinical';
import type { AppDeps } from '../../deps';
import { requireAnyRole } from '../auth/guard';

/**
 * Prescriptions (SPEC §3, §7) and the drug–allergy check behind the prescribing forms:
 *   POST /prescription/{patientId}                 doctor, assigned patient: 201 with alerts (never blocking)
 *   GET  /prescription?page&limit                  patient: own; doctor: assigned patients'
 *   GET  /prescription/{id}                        the patient, or a doctor assigned to them
 *   GET  /drug-alerts/{patientId}?drug&allergies   doctor, assigned patient
 */
export function prescriptionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const anyone = requireAnyRole(deps, ['patient', 'doctor']);
  const doctorOnly = requireAnyRole(deps, ['doctor']);
  const common = { tags: ['prescriptions'], security: [{ bearerAuth: [] }] };
  const denied = { 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

  return async (app) => {
    app.post(
      '/prescription/:patientId',
      {
        onRequest: doctorOnly,
        schema: {
          ...common,
          summary: 'Prescribe for an assigned patient (doctor); alerts warn, never block',
          params: PatientIdParams,
          body: PrescriptionCreate,
          response: { 201: PrescriptionCreated, 400: ErrorResponse, ...denied },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const result = await accessFor(deps, request).createPrescription(request.params.patientId, body);
        reply.code(201);
        return { ...result.prescription, alerts: drugAllergyAlerts(body.prescribedDrug, result.allergies) };
      },
    );

    app.get(
      '/prescription',
      {
        onRequest: anyone,
        schema: {
          ...common,
          summary: "Prescriptions, newest first: the patient's own, or the doctor's assigned patients'",
          querystring: PageQuery,
          response: { 200: PrescriptionList, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        return accessFor(deps, request).listPrescriptions(request.query);
      },
    );

    app.get(
      '/prescription/:id',
      {
        onRequest: anyone,
        schema: {
          ...common,
          summary: 'One prescription (its patient, or a doctor assigned to them)',
          params: RecordIdParams,
          response: { 200: Prescription, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        return accessFor(deps, request).readPrescription(request.params.id);
      },
    );

    app.get(
      '/drug-alerts/:patientId',
      {
        onRequest: doctorOnly,
        schema: {
          ...common,
          summary: "A drug checked against the patient's recorded allergies and the ones typed (assigned doctor)",
          params: PatientIdParams,
          querystring: DrugAlertQuery,
          response: { 200: DrugAlertResponse, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        const { drug, allergies: typed } = request.query;
        const allergies = await accessFor(deps, request).allergiesFor(request.params.patientId, (typed ?? '').split(','));
        return { alerts: drugAllergyAlerts(drug, allergies), allergies };
      },
    );
  };
}
