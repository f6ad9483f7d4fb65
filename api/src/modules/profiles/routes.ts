import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES } from 'shared-contracts';
import { securityEvent } from '../../access';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { HttpError, isUniqueViolation } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { sessionOf } from '../auth/guard';
import { DUPLICATE_EMAIL } from '../auth/messages';
import { createSession, revokeAllSessions } from '../auth/sessions';
import { accountTables } from './accounts';
import { PROFILES } from './index';

export function profileRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  // The guard runs after validation here, as it always has: bad input keeps its status.
  const onlyAfterInput = { guardAt: 'preHandler' } as const;

  return async (app) => {
    for (const role of ROLES) {
      const profile = PROFILES[role];

      async function current(accountId: string) {
        const me = await profile.load(db.db, accountId);
        // A session whose account is gone is as good as no session.
        if (!me) throw new HttpError(401, 'Unauthorized');
        return me;
      }

      route(app, deps, ENDPOINTS[`${role}Me`], async (request) => current(sessionOf(request).accountId), onlyAfterInput);

      route(
        app,
        deps,
        ENDPOINTS[`${role}UpdateMe`],
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
              // The edit form sends the e-mail unchanged too: only a different address is an e-mail change.
              const t = accountTables[role];
              const [before] =
                typeof fields.email === 'string' ? await tx.select({ email: t.email }).from(t).where(eq(t.id, accountId)) : [];
              await profile.update(tx, accountId, fields, passwordHash, now);
              const event = { role, accountId, at: now, ip: request.ip };
              if (before && before.email.toLowerCase() !== (fields.email as string).toLowerCase()) {
                await securityEvent(tx, { ...event, action: 'email-change' });
              }
              if (!passwordHash) return undefined;
              await securityEvent(tx, { ...event, action: 'password-change' });
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
        onlyAfterInput,
      );
    }
  };
}
