import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@careloop/shared-contracts';
import { accessFor } from '../../access';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';

/**
 * Prescriptions (SPEC §3, §7) and the prescribing check behind the forms (allergies, interactions):
 *   POST /prescription/{patientId}                 doctor, assigned patient: 201 with alerts; a stop
 *                                                  alert without overrideReason: 409 with the alerts
 *   GET  /prescription?page&limit                  patient: own; doctor: assigned patients'
 *   GET  /prescription/{id}                        the patient, or a doctor assigned to them
 *   POST /prescription/{id}/stop                   doctor assigned to its patient: stopped, with a reason
 *   GET  /drug-alerts/{patientId}?drug&allergies   doctor, assigned patient
 * The contract names the POST's parameter `id` (one name per path position); it is the patient.
 */
export function prescriptionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, deps, ENDPOINTS.createPrescription, async (request, reply) => {
      const body = request.body;
      const patientId = request.params.id;
      const result = await accessFor(deps, request).createPrescription(patientId, body);
      reply.code(201);
      return { ...result.prescription, alerts: result.alerts };
    });

    route(app, deps, ENDPOINTS.listPrescriptions, async (request) => {
      return accessFor(deps, request).listPrescriptions(request.query);
    });

    route(app, deps, ENDPOINTS.getPrescription, async (request) => {
      return accessFor(deps, request).readPrescription(request.params.id);
    });

    route(app, deps, ENDPOINTS.stopPrescription, async (request) => {
      return accessFor(deps, request).stopPrescription(request.params.id, request.body.reason);
    });

    route(app, deps, ENDPOINTS.drugAlerts, async (request) => {
      const { drug, allergies: typed } = request.query;
      return accessFor(deps, request).medicationCheck(request.params.patientId, drug, (typed ?? '').split(','));
    });
  };
}
