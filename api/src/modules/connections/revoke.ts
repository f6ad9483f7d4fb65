import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@careloop/shared-contracts';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { HttpError } from '../../lib/errors';
import { actorOf, notifierFor, revokeAssignment } from '../../access';
import { sessionOf } from '../../http/guard';
import { DOCTOR_ACCESS_ENDED, DOCTOR_NOT_FOUND, PATIENT_NOT_FOUND, PATIENT_RELEASED } from './messages';

/**
 * Revoke (either side ends a connection; the access layer ends it with its audit row):
 *   DELETE /patient/doctors/{doctorId}    a patient ends a doctor's access
 *   DELETE /doctor/patients/{patientId}   a doctor releases a patient
 * An id that is not one of the caller's assignments is answered exactly as an unknown one (404).
 */
export function revokeRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock } = deps;

  return async (app) => {
    route(app, deps, ENDPOINTS.patientRevokeDoctor, async (request) => {
      const patientId = sessionOf(request).accountId;
      // the doctor is told, naming the patient (access/assignments.ts)
      const notifier = notifierFor(deps, request.server);
      const ended = await revokeAssignment(db.db, actorOf(request, clock), request.params.doctorId, patientId, notifier);
      if (!ended) throw new HttpError(404, DOCTOR_NOT_FOUND);
      return { message: DOCTOR_ACCESS_ENDED };
    });

    route(app, deps, ENDPOINTS.doctorRevokePatient, async (request) => {
      const doctorId = sessionOf(request).accountId;
      const ended = await revokeAssignment(db.db, actorOf(request, clock), doctorId, request.params.patientId);
      if (!ended) throw new HttpError(404, PATIENT_NOT_FOUND);
      return { message: PATIENT_RELEASED };
    });
  };
}
