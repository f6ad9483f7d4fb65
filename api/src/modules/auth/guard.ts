import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Role } from 'shared-contracts';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/errors';
import { findActiveSession, type Session } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Session;
  }
}

// Our tokens are 43 base64url characters; anything far off is rejected without a database trip.
const BEARER = /^Bearer ([A-Za-z0-9_-]{16,256})$/;

/** preHandler for role routes: 401 without a live session, 403 with a session of the other role. */
export function requireRole(deps: AppDeps, role: Role): preHandlerAsyncHookHandler {
  return async function guard(request: FastifyRequest, _reply: FastifyReply) {
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw new HttpError(401, 'Unauthorized');
    const session = await findActiveSession(deps.db.db, match[1], deps.clock.now());
    if (!session) throw new HttpError(401, 'Unauthorized');
    if (session.role !== role) throw new HttpError(403, 'Forbidden');
    request.auth = session;
  };
}

/**
 * Hook for routes open to several roles (records, prescriptions): 401 without a live session,
 * 403 for a role not listed. Meant for onRequest, so an unauthenticated or wrong-role caller is
 * answered before its body or parameters are even validated.
 */
export function requireAnyRole(deps: AppDeps, roles: readonly Role[]) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw new HttpError(401, 'Unauthorized');
    const session = await findActiveSession(deps.db.db, match[1], deps.clock.now());
    if (!session) throw new HttpError(401, 'Unauthorized');
    if (!roles.includes(session.role)) throw new HttpError(403, 'Forbidden');
    request.auth = session;
  };
}

/** The session a guarded handler runs under (the guard guarantees it is there). */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.auth) throw new Error('route is missing the requireRole guard');
  return request.auth;
}
