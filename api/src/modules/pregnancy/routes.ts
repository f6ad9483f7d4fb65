import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@careloop/shared-contracts';
import { accessFor } from '../../access';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';

/**
 * A patient's pregnancy status (NEWS2 is not validated in pregnancy: the assessment adds a caveat):
 *   GET /pregnancy/{patientId}   the patient, or an assigned doctor
 *   PUT /pregnancy/{patientId}   assigned doctor; the patient's records are assessed again on their next read
 */
export function pregnancyRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, deps, ENDPOINTS.getPregnancy, async (request) => {
      return accessFor(deps, request).readPregnancy(request.params.patientId);
    });

    route(app, deps, ENDPOINTS.setPregnancy, async (request) => {
      return accessFor(deps, request).setPregnancy(request.params.patientId, request.body);
    });
  };
}
