import type { FastifyReply, FastifyRequest } from 'fastify';
import { MFA_REQUIRED, SESSION_EXPIRED, type Role } from '@careloop/shared-contracts';
import type { AppDeps } from '../deps';
import { HttpError } from '../lib/errors';
import { findActiveSession, sessionRanOut, type Session } from '../modules/account/auth/sessions';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Session;
    /** What the route's sessionRead read in the same statement as the session (see RouteExtra). */
    sessionRead?: unknown;
  }
}

/**
 * A route's own session lookup: ONE statement that checks the session (for the route's single
 * role) and reads what the handler needs. undefined when it found nothing — the guard then looks the
 * session up alone, so a missing, wrong-role or account-less session is answered as before.
 */
export type SessionRead = (token: string, now: Date) => Promise<{ session: Session; read: unknown } | undefined>;

// Our tokens are 43 base64url characters; anything far off is rejected without a database trip.
const BEARER = /^Bearer ([A-Za-z0-9_-]{16,256})$/;

/**
 * The role guard (http/route.ts adds it to every route whose endpoint is not public):
 * 401 without a live session, 403 for a role not listed, and 403 MFA_REQUIRED for a role of
 * REQUIRE_MFA_FOR whose account has two-factor off, unless the endpoint is marked `beforeMfa`
 * (enrolment). On onRequest, an unauthenticated or wrong-role caller is answered before its body
 * or parameters are even validated.
 */
export function requireAnyRole(
  deps: AppDeps,
  roles: readonly Role[],
  sessionRead?: SessionRead,
  { beforeMfa = false }: { beforeMfa?: boolean } = {},
) {
  const admit = (session: Session) => {
    if (!beforeMfa && !session.twoFactorEnabled && deps.config.requireMfaFor.includes(session.role)) {
      throw new HttpError(403, MFA_REQUIRED);
    }
  };
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw new HttpError(401, 'Unauthorized');
    if (sessionRead) {
      const found = await sessionRead(match[1], deps.clock.now());
      if (found && roles.includes(found.session.role)) {
        logAs(request, reply, found.session);
        admit(found.session);
        request.auth = found.session;
        request.sessionRead = found.read;
        return;
      }
    }
    const session = await findActiveSession(deps.db.db, match[1], deps.clock.now(), deps.config);
    if (!session) {
      // Told apart only here, on the failure path: the web app then says why it signs the user out.
      if (await sessionRanOut(deps.db.db, match[1])) throw new HttpError(401, SESSION_EXPIRED);
      throw new HttpError(401, 'Unauthorized');
    }
    logAs(request, reply, session);
    if (!roles.includes(session.role)) throw new HttpError(403, 'Forbidden');
    admit(session);
    request.auth = session;
  };
}

/**
 * Every log line of the request, the response line included, names the caller's account: a
 * refused or not-found attempt on someone else's data (an IDOR probe) says who tried.
 */
function logAs(request: FastifyRequest, reply: FastifyReply, session: Session) {
  request.log = request.log.child({ accountId: session.accountId, role: session.role });
  reply.log = request.log;
}

/**
 * The live session a public route's caller sent, if any (an e-mailed link opened in a signed-in
 * browser): what such a route keeps when it ends the account's other sessions.
 */
export async function optionalSessionOf(deps: AppDeps, request: FastifyRequest): Promise<Session | undefined> {
  const match = BEARER.exec(request.headers.authorization ?? '');
  return match ? findActiveSession(deps.db.db, match[1], deps.clock.now(), deps.config) : undefined;
}

/** The session a guarded handler runs under (the guard guarantees it is there). */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.auth) throw new Error('route is missing its role guard');
  return request.auth;
}
