import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, HANDOFF_INVALID, ROLES } from '@careloop/shared-contracts';
import { securityEvent } from '../../../access';
import type { AppDeps } from '../../../deps';
import { perIpCredentialLimit, route } from '../../../http/route';
import { HttpError } from '../../../lib/errors';
import { createSession, deviceOf } from '../auth/sessions';
import { accountTables } from '../../profiles/accounts';
import { consumeHandoffCode } from './codes';

// POST /{role}/auth/exchange: the web app turns the one-time code of a Google sign-in into a
// session. The session token never travels in a URL (issue 11: no session swap by link).
export function handoffRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  // Like login: a public door that hands out sessions, limited per IP.
  const perIp = perIpCredentialLimit(deps);
  return async (app) => {
    for (const role of ROLES) {
      route(
        app,
        deps,
        ENDPOINTS[`${role}ExchangeHandoff`],
        async (request) => {
          const now = clock.now();
          const t = accountTables[role];
          // One transaction: the code is spent with the session it yields and the sign-in row.
          // A refused code stays spent too (the transaction commits): a code is tried once.
          const token = await db.db.transaction(async (tx) => {
            const accountId = await consumeHandoffCode(tx, role, request.body.code, now);
            if (!accountId) return undefined;
            const [account] = await tx
              .select({ twoFactorEnabled: t.twoFactorEnabled })
              .from(t)
              .where(eq(t.id, accountId))
              .limit(1);
            // Codes are issued only without two-factor; one turned on within the minute since
            // still needs its code step, which a hand-off code must never skip.
            if (!account || account.twoFactorEnabled) return undefined;
            await securityEvent(tx, { role, accountId, action: 'sign-in', at: now, ip: request.ip });
            return createSession(tx, role, accountId, now, config.sessionMaxHours, deviceOf(request));
          });
          if (!token) throw new HttpError(400, HANDOFF_INVALID);
          return { token, role };
        },
        { config: perIp },
      );
    }
  };
}
