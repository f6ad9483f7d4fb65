import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, TREND_MAX_RECORDS } from '@careloop/shared-contracts';
import { accessFor } from '../../access';
import { vitalSignTrend } from '../../clinical';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';

/**
 * GET /vital-signs[?patientId=]  the patient's own, or an assigned patient's (doctor): NEWS2 and
 * the vital signs of their latest records, oldest first, with the bands to shade. Who may see
 * the patient, the 404 and the audit row are the access layer's; the reading is the clinical module's.
 */
export function vitalSignRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, deps, ENDPOINTS.vitalSignTrend, async (request) => {
      const { patientId, records, truncated } = await accessFor(deps, request).recordsForTrend(
        request.query.patientId,
        TREND_MAX_RECORDS,
      );
      return vitalSignTrend(patientId, records, { timeZone: deps.config.clinicTimeZone, truncated });
    });
  };
}
