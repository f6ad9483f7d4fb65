import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@careloop/shared-contracts';
import { draftAccessFor } from '../../access';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';

/**
 * A doctor's drafts of long forms (the record, a prescription):
 *   GET    /doctor/drafts                          the notice after sign-in (no values)
 *   GET    /doctor/drafts/{form}/{patientId}       one draft with its values, or null
 *   PUT    /doctor/drafts/{form}/{patientId}       kept as typed
 *   DELETE /doctor/drafts/{form}/{patientId}       discarded
 * Who reaches which is decided in the access layer (api/src/access/drafts.ts).
 */
export function draftRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, deps, ENDPOINTS.doctorListDrafts, async (request) => ({ drafts: await draftAccessFor(deps, request).list() }));
    route(app, deps, ENDPOINTS.doctorDraft, async (request) => ({
      draft: await draftAccessFor(deps, request).get(request.params.form, request.params.patientId),
    }));
    route(app, deps, ENDPOINTS.doctorSaveDraft, async (request) => ({
      savedAt: await draftAccessFor(deps, request).save(request.params.form, request.params.patientId, request.body),
    }));
    route(app, deps, ENDPOINTS.doctorDiscardDraft, async (request, reply) => {
      await draftAccessFor(deps, request).discard(request.params.form, request.params.patientId);
      return reply.status(204).send();
    });
  };
}
