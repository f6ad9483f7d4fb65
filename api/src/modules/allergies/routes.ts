import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@careloop/shared-contracts';
import { allergyAccessFor } from '../../access';
import { suggestSubstances } from '../../clinical';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';

/**
 * A patient's allergy list (issue 13 item 1):
 *   GET  /allergies/{patientId}   the patient, or an assigned doctor: structured + unreviewed free-text entries
 *   POST /allergies/{patientId}   assigned doctor: add, or review a free-text note (`reviews`)
 *   PUT  /allergy/{id}            assigned doctor: edit, confirm, refute
 *   POST /patient/allergies       the patient: report one (unconfirmed)
 *   GET  /allergy-substances?q=   either role: the vocabulary's names for the substance field (no patient data)
 */
export function allergyRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, deps, ENDPOINTS.listAllergies, async (request) => {
      return allergyAccessFor(deps, request).list(request.params.patientId);
    });

    route(app, deps, ENDPOINTS.createAllergy, async (request, reply) => {
      const created = await allergyAccessFor(deps, request).create(request.params.patientId, request.body);
      reply.code(201);
      return created;
    });

    route(app, deps, ENDPOINTS.updateAllergy, async (request) => {
      return allergyAccessFor(deps, request).update(request.params.id, request.body);
    });

    route(app, deps, ENDPOINTS.reportAllergy, async (request, reply) => {
      const reported = await allergyAccessFor(deps, request).report(request.body);
      reply.code(201);
      return reported;
    });

    route(app, deps, ENDPOINTS.suggestAllergySubstances, async (request) => {
      return { items: suggestSubstances(request.query.q, request.query.limit) };
    });
  };
}
