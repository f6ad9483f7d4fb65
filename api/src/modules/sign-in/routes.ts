import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES, type Role } from 'shared-contracts';
import { securityEvent } from '../../access';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { HttpError, isUniqueViolation } from '../../lib/errors';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/password';
import { findCredentials } from '../profiles/accounts';
import { PROFILES } from '../profiles';
import { sessionOf } from '../auth/guard';
import { BAD_CREDENTIALS, DUPLICATE_EMAIL } from '../auth/messages';
import { createSession, deleteExpiredSessions, revokeSession } from '../auth/sessions';
import { clearFailures, lockedUntil, recordFailure } from '../auth/throttle';
import { openLoginWindow } from '../two-factor/store';

// Sign-up, login and logout for both roles. Kept apart from modules/auth (sessions, guard,
// throttle), which every other module uses: this file needs profiles and two-factor, and
// living in auth it would make auth ↔ profiles ↔ two-factor a cycle.
export function authRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  // Signup and login run a memory-hard hash: one per-IP limit.
  const perIp = { rateLimit: { max: config.loginRateLimitPerMinute, timeWindow: '1 minute' } };

  return async (app) => {
    for (const role of ROLES) {
      const profile = PROFILES[role];

      route(
        app,
        deps,
        ENDPOINTS[`${role}Signup`],
        async (request, reply) => {
          const body = request.body as { password: string };
          const passwordHash = await hashPassword(body.password, config.passwordHashCost);
          const now = clock.now();
          try {
            // One transaction: no account without its first session, and vice versa.
            const token = await db.db.transaction(async (tx) => {
              const id = await profile.create(tx, body, passwordHash);
              return createSession(tx, role, id, now, config.sessionTtlHours);
            });
            return reply.code(201).send({ token, role });
          } catch (err) {
            if (isUniqueViolation(err)) throw new HttpError(409, DUPLICATE_EMAIL);
            throw err;
          }
        },
        { config: perIp },
      );

      route(
        app,
        deps,
        ENDPOINTS[`${role}Login`],
        async (request) => login(role, request.body.email, request.body.password, request.ip),
        {
          config: perIp,
        },
      );

      route(
        app,
        deps,
        ENDPOINTS[`${role}Logout`],
        async (request, reply) => {
          const session = sessionOf(request);
          const now = clock.now();
          await db.db.transaction(async (tx) => {
            await revokeSession(tx, session.id, now);
            await securityEvent(tx, { role, accountId: session.accountId, action: 'sign-out', at: now, ip: request.ip });
          });
          return reply.code(204).send();
        },
        { guardAt: 'preHandler' },
      );
    }

    async function login(role: Role, email: string, password: string, ip: string) {
      const now = clock.now();
      const until = await lockedUntil(db.db, role, email, now);
      if (until) {
        const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
        throw new HttpError(429, `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
      }
      const account = await findCredentials(db.db, role, email);
      // Unknown e-mails are checked against a dummy hash: same scrypt time, no enumeration by timing.
      const ok = await verifyPassword(password, account?.passwordHash ?? (await dummyHash(config.passwordHashCost)));
      if (!account || !ok) {
        await recordFailure(db.db, role, email, now);
        // Recorded for an existing account only: an unknown e-mail has no owner to show it to.
        if (account) await securityEvent(db.db, { role, accountId: account.id, action: 'sign-in-failed', at: now, ip });
        throw new HttpError(401, BAD_CREDENTIALS);
      }
      await clearFailures(db.db, role, email);
      await deleteExpiredSessions(db.db, now);
      if (account.twoFactorEnabled) {
        // No token yet: POST /{role}/verify2FA with a code finishes the login within 5 minutes.
        await openLoginWindow(db.db, role, account.id, now);
        return role === 'patient'
          ? { twoFactorRequired: true, patientId: account.id }
          : { twoFactorRequired: true, doctorId: account.id };
      }
      // With two-factor on, the sign-in is recorded when the code is accepted (verify2FA).
      const token = await db.db.transaction(async (tx) => {
        await securityEvent(tx, { role, accountId: account.id, action: 'sign-in', at: now, ip });
        return createSession(tx, role, account.id, now, config.sessionTtlHours);
      });
      return { twoFactorRequired: false, token, role };
    }
  };
}
