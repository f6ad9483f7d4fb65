import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES } from '@careloop/shared-contracts';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { HttpError } from '../../lib/errors';
import { sessionOf } from '../../http/guard';
import { isAssigned, notifierFor, notify, requireVerifiedRegistration } from '../../access';
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
  TOO_MANY_REQUESTS,
  VERIFY_FIRST,
} from './messages';
import {
  countSentSince,
  recordMiss,
  createRequest,
  findAccountByEmail,
  findAccountById,
  listPending,
  otherRole,
  respondToRequest,
} from './store';

/**
 * Care network (SPEC §6–§7): a doctor asks a patient by e-mail, or a patient a doctor; the
 * addressee accepts (which makes the assignment) or either side cancels.
 *   POST  /doctor/requestPatient, /patient/requestDoctor          { email }
 *   GET   /{role}/receivedRequests, /{role}/sentRequests          pending only, newest first
 *   PATCH /{role}/responseRequest/{requestId}                     { action: accept | reject }
 */
export function connectionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
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
          const now = clock.now();
          const notifier = notifierFor(deps, request.server);
          const outcome = await db.db.transaction(async (tx) => {
            // The sender's row is locked: simultaneous requests cannot all slip under the hourly limit.
            const sender = await findAccountById(tx, role, accountId, { lock: true });
            if (!sender) throw new HttpError(401, 'Unauthorized');
            // An unproven address must not pose as a doctor (or a patient) to anyone.
            if (!sender.verified) throw new HttpError(403, VERIFY_FIRST);
            // A doctor's requests open only once an operator verified their professional registration.
            if (role === 'doctor') await requireVerifiedRegistration(tx, sender.id, config.doctorVerification);
            const since = new Date(now.getTime() - 3_600_000);
            if ((await countSentSince(tx, role, accountId, since)) >= config.connectionRequestsPerHour) {
              throw new HttpError(429, TOO_MANY_REQUESTS);
            }
            // Yourself (the same person with both kinds of account) is said plainly: it tells you nothing new.
            if (email === sender.email) throw new HttpError(400, REQUEST_TO_SELF);
            const target = await findAccountByEmail(tx, other, email);
            // Unknown, unverified and other-role addresses get one answer: an e-mail never reveals an
            // account. The miss is kept (and counted toward the limit): the 404 commits it.
            if (!target?.verified) {
              await recordMiss(tx, role, accountId, now);
              return 'missed' as const;
            }

            const doctorId = role === 'doctor' ? sender.id : target.id;
            const patientId = role === 'patient' ? sender.id : target.id;
            if (await isAssigned(tx, doctorId, patientId)) throw new HttpError(409, ALREADY_CONNECTED);
            if (!(await createRequest(tx, { doctorId, patientId, initiatedBy: role, now }))) {
              throw new HttpError(409, ALREADY_PENDING);
            }
            // The addressee is told who asks (their name and e-mail, as the received list shows them).
            await notify(tx, notifier, {
              to: { role: other, accountId: target.id },
              kind: 'request-received',
              about: { role, accountId: sender.id },
              at: now,
            });
            return 'sent' as const;
          });
          notifier.flush();
          if (outcome === 'missed') throw new HttpError(404, noAccount(other));
          reply.code(201);
          // The typed address only, never the addressee's name (issue 11).
          return { message: requestSent(email) };
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
          const notifier = notifierFor(deps, request.server);
          const outcome = await respondToRequest(db.db, role, accountId, request.params.requestId, action, clock.now(), notifier);
          notifier.flush();
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
