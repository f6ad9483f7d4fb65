import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, LoginBody, LoginResponse, ROLES, TokenResponse, type Role } from 'shared-contracts';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { HttpError, isUniqueViolation } from '../../lib/errors';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/password';
import { findCredentials } from '../profiles/accounts';
import { PROFILES } from '../profiles';
import { requireRole, sessionOf } from '../auth/guard';
import { BAD_CREDENTIALS, DUPLICATE_EMAIL } from '../auth/messages';
import { createSession, deleteExpiredSessions, revokeSession } from '../auth/sessions';
import { clearFailures, lockedUntil, recordFailure } from '../auth/throttle';
import { openLoginWindow } from '../two-factor/store';

// Sign-up, login and logout for both roles. Kept apart from modules/auth (sessions, guard,
// throttle), which every other module uses: this file needs profiles and two-factor, and
// living in auth it would make auth ↔ profiles ↔ two-factor a cycle.
export function authRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;

  return async (app) => {
    for (const role of ROLES) {
      const profile = PROFILES[role];
      const tags = [role];

      app.post(
        `/${role}/signup`,
        {
          // Each signup runs a memory-hard hash: the same per-IP limit as login.
          config: { rateLimit: { max: config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
          schema: {
            tags,
            summary: `Create a ${role} account and sign in`,
            body: profile.signupBody,
            response: { 201: TokenResponse, 400: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse },
          },
        },
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
      );

      app.post(
        `/${role}/login`,
        {
          config: { rateLimit: { max: config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
          schema: {
            tags,
            summary: `Sign in as ${role}`,
            body: LoginBody,
            response: { 200: LoginResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
          },
        },
        async (request) => login(role, request.body.email, request.body.password),
      );

      app.post(
        `/${role}/logout`,
        {
          preHandler: requireRole(deps, role),
          schema: {
            tags,
            summary: 'Revoke the current session',
            security: [{ bearerAuth: [] }],
            response: { 204: z.undefined(), 401: ErrorResponse, 403: ErrorResponse },
          },
        },
        async (request, reply) => {
          await revokeSession(db.db, sessionOf(request).id, clock.now());
          return reply.code(204).send();
        },
      );
    }

    async function login(role: Role, email: string, password: string) {
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
      const token = await createSession(db.db, role, account.id, now, config.sessionTtlHours);
      return { twoFactorRequired: false, token, role };
    }
  };
}
