import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES } from 'shared-contracts';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { HttpError } from '../../lib/errors';
import { sessionOf } from '../auth/guard';
import { isAssigned } from '../../access';
import {
  ALREADY_ANSWERED,
  ALREADY_CONNECTED,
  ALREADY_PENDING,
  noAccount,
  ONLY_ADDRESSEE_ACCEPTS,
  REQUEST_ACCEPTED,
  REQUEST_CANCELLED,
  REQUEST_NOT_FOUND,
  REQUEST_TO_SELF,
  requestSent,
  wrongRole,
} from './messages';
import { createRequest, findAccountByEmail, findAccountById, listPending, otherRole, respondToRequest } from './store';

/**
 * Care network (SPEC §6–§7): a doctor asks a patient by e-mail, or a patient a doctor; the
 * addressee accepts (which makes the assignment) or either side cancels.
 *   POST  /doctor/requestPatient, /patient/requestDoctor          { email }
 *   GET   /{role}/receivedRequests, /{role}/sentRequests          pending only, newest first
 *   PATCH /{role}/responseRequest/{requestId}                     { action: accept | reject }
 */
export function connectionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock } = deps;
  // The guard runs after validation here, as it always has: bad input keeps its status.
  const afterInput = { guardAt: 'preHandler' } as const;

  return async (app) => {
    for (const role of ROLES) {
      const other = otherRole(role);

      route(
        app,
        deps,
        ENDPOINTS[`${role}RequestConnection`],
        async (request, reply) => {
          const { accountId } = sessionOf(request);
          const { email } = request.body;
          const me = await findAccountById(db.db, role, accountId);
          if (!me) throw new HttpError(401, 'Unauthorized');

          const target = await findAccountByEmail(db.db, other, email);
          if (!target) {
            if (await findAccountByEmail(db.db, role, email)) throw new HttpError(400, wrongRole(other, role));
            throw new HttpError(404, noAccount(other));
          }
          // The same person holding a doctor and a patient account under one e-mail.
          if (target.email === me.email) throw new HttpError(400, REQUEST_TO_SELF);

          const doctorId = role === 'doctor' ? me.id : target.id;
          const patientId = role === 'patient' ? me.id : target.id;
          if (await isAssigned(db.db, doctorId, patientId)) throw new HttpError(409, ALREADY_CONNECTED);
          if (!(await createRequest(db.db, { doctorId, patientId, initiatedBy: role, now: clock.now() }))) {
            throw new HttpError(409, ALREADY_PENDING);
          }
          reply.code(201);
          return { message: requestSent(target.name) };
        },
        afterInput,
      );

      for (const direction of ['received', 'sent'] as const) {
        route(
          app,
          deps,
          ENDPOINTS[`${role}${direction === 'received' ? 'Received' : 'Sent'}Requests`],
          async (request) => listPending(db.db, role, sessionOf(request).accountId, direction),
          afterInput,
        );
      }

      route(
        app,
        deps,
        ENDPOINTS[`${role}RespondToRequest`],
        async (request) => {
          const { accountId } = sessionOf(request);
          const { action } = request.body;
          const outcome = await respondToRequest(db.db, role, accountId, request.params.requestId, action, clock.now());
          switch (outcome) {
            case 'accepted':
              return { message: REQUEST_ACCEPTED };
            case 'rejected':
              return { message: REQUEST_CANCELLED };
            case 'not_found':
              throw new HttpError(404, REQUEST_NOT_FOUND);
            case 'answered':
              throw new HttpError(409, ALREADY_ANSWERED);
            case 'sender_cannot_accept':
              throw new HttpError(403, ONLY_ADDRESSEE_ACCEPTS);
          }
        },
        afterInput,
      );
    }
  };
}
