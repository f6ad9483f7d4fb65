import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, ROLES } from 'shared-contracts';
import type { AppDeps } from '../../deps';
import { HttpError, isUniqueViolation } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { requireRole, sessionOf } from '../auth/guard';
import { DUPLICATE_EMAIL } from '../auth/messages';
import { createSession, revokeAllSessions } from '../auth/sessions';
import { PROFILES } from './index';

export function profileRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;

  return async (app) => {
    for (const role of ROLES) {
      const profile = PROFILES[role];
      const guard = requireRole(deps, role);
      const common = { tags: [role], security: [{ bearerAuth: [] }] };

      async function current(accountId: string) {
        const me = await profile.load(db.db, accountId);
        // A session whose account is gone is as good as no session.
        if (!me) throw new HttpError(401, 'Unauthorized');
        return me;
      }

      app.get(
        `/${role}/me`,
        {
          preHandler: guard,
          schema: {
            ...common,
            summary: `The signed-in ${role}'s profile`,
            response: { 200: profile.meResponse, 401: ErrorResponse, 403: ErrorResponse },
          },
        },
        async (request) => current(sessionOf(request).accountId),
      );

      app.patch(
        `/${role}/me`,
        {
          preHandler: guard,
          schema: {
            ...common,
            summary: `Update the signed-in ${role}'s profile (a new password revokes every session and returns a new token)`,
            body: profile.updateBody,
            response: {
              200: profile.updateResponse,
              400: ErrorResponse,
              401: ErrorResponse,
              403: ErrorResponse,
              409: ErrorResponse,
            },
          },
        },
        async (request) => {
          const { accountId } = sessionOf(request);
          const { password, ...fields } = request.body as { password?: string } & Record<string, unknown>;
          if (password === undefined && Object.keys(fields).length === 0) {
            throw new HttpError(400, 'body: Nothing to update: send at least one field');
          }
          const passwordHash = password === undefined ? undefined : await hashPassword(password, config.passwordHashCost);
          const now = clock.now();
          let token: string | undefined;
          try {
            token = await db.db.transaction(async (tx) => {
              await profile.update(tx, accountId, fields, passwordHash, now);
              if (!passwordHash) return undefined;
              // A new password ends every session of the account, this one included.
              await revokeAllSessions(tx, role, accountId, now);
              return createSession(tx, role, accountId, now, config.sessionTtlHours);
            });
          } catch (err) {
            if (isUniqueViolation(err)) throw new HttpError(409, DUPLICATE_EMAIL);
            throw err;
          }
          const me = await current(accountId);
          return token ? { ...me, token } : me;
        },
      );
    }
  };
}
