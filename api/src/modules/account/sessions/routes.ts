import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES } from '@careloop/shared-contracts';
import { securityEvent } from '../../../access';
import type { AppDeps } from '../../../deps';
import { route } from '../../../http/route';
import { HttpError } from '../../../lib/errors';
import { sessionOf } from '../../../http/guard';
import { endOtherSessions, endOwnSession, liveSessionsOf } from '../auth/sessions';
import { deviceName } from '../auth/device';

/**
 * The caller's own sessions (GET /{role}/sessions, DELETE …/{sessionId}, POST …/end-others): every
 * statement is scoped to the caller's role and account, so another account's id is simply not found.
 */
export function sessionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  return async (app) => {
    for (const role of ROLES) {
      route(app, deps, ENDPOINTS[`${role}ListSessions`], async (request) => {
        const { accountId, id: currentId } = sessionOf(request);
        const rows = await liveSessionsOf(db.db, role, accountId, clock.now(), config);
        return {
          sessions: rows.map((r) => ({
            id: r.id,
            device: deviceName(r.userAgent),
            ip: r.ip,
            startedAt: r.createdAt.toISOString(),
            lastSeenAt: r.lastSeenAt.toISOString(),
            current: r.id === currentId,
          })),
        };
      });

      route(app, deps, ENDPOINTS[`${role}EndSession`], async (request) => {
        const { accountId } = sessionOf(request);
        const { sessionId } = request.params as { sessionId: string };
        const now = clock.now();
        const ended = await db.db.transaction(async (tx) => {
          if (!(await endOwnSession(tx, role, accountId, sessionId, now))) return false;
          await securityEvent(tx, { role, accountId, action: 'sessions-ended', at: now, ip: request.ip });
          return true;
        });
        if (!ended) throw new HttpError(404, 'Session not found');
        return { ended: 1 };
      });

      route(app, deps, ENDPOINTS[`${role}EndOtherSessions`], async (request) => {
        const { accountId, id } = sessionOf(request);
        const now = clock.now();
        const ended = await db.db.transaction(async (tx) => {
          const count = await endOtherSessions(tx, role, accountId, id, now);
          await securityEvent(tx, { role, accountId, action: 'sessions-ended', at: now, ip: request.ip });
          return count;
        });
        return { ended };
      });
    }
  };
}
