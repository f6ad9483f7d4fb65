import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  MessageResponse,
  ROLES,
  TokenResponse,
  TwoFactorSetupResponse,
  VerifyCodeBody,
  VerifyCodeResponse,
  VerifyLoginCodeBody,
  type Role,
} from 'shared-contracts';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/errors';
import { requireRole, sessionOf } from '../auth/guard';
import { createSession } from '../auth/sessions';
import {
  acceptStep,
  disableTwoFactor,
  loadTwoFactor,
  lockedUntil,
  promotePending,
  recordFailedAttempt,
  reserveAttempt,
  secretContext,
  setPendingSecret,
} from './store';
import { matchingStep, newTotpSecret, setupMaterial } from './totp';

export const INVALID_CODE = 'Invalid or expired code';
export const TWO_FACTOR_DISABLED = 'Two-factor authentication disabled';

export function twoFactorRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config, secretBox } = deps;

  async function tooMany(role: Role, accountId: string): Promise<never> {
    const until = await lockedUntil(db.db, role, accountId);
    const minutes = until ? Math.max(1, Math.ceil((until.getTime() - clock.now().getTime()) / 60_000)) : 15;
    throw new HttpError(429, `Too many wrong codes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }

  /** Opens a sealed secret; a value that does not open (wrong key, tampering) matches no code. */
  function open(role: Role, accountId: string, sealed: string): string | undefined {
    try {
      return secretBox.decrypt(sealed, secretContext(role, accountId));
    } catch {
      return undefined;
    }
  }

  return async (app) => {
    for (const role of ROLES) {
      const guard = requireRole(deps, role);
      const idKey = role === 'patient' ? 'patientId' : 'doctorId';
      const otherKey = role === 'patient' ? 'doctorId' : 'patientId';
      const common = { tags: [role, 'two-factor'], security: [{ bearerAuth: [] }] };

      app.get(
        `/${role}/qrCode`,
        {
          preHandler: guard,
          schema: {
            ...common,
            summary: 'A new two-factor secret to scan (on only after POST verifyqrCode accepts a code of it)',
            response: { 200: TwoFactorSetupResponse, 401: ErrorResponse, 403: ErrorResponse },
          },
        },
        async (request, reply) => {
          const { accountId } = sessionOf(request);
          const row = await loadTwoFactor(db.db, role, accountId);
          if (!row) throw new HttpError(401, 'Unauthorized');
          const secret = newTotpSecret();
          // Replaces any pending secret; an enabled one keeps working until this one is verified.
          await setPendingSecret(db.db, role, accountId, secretBox.encrypt(secret, secretContext(role, accountId)), clock.now());
          reply.header('cache-control', 'no-store');
          return setupMaterial(secret, row.email);
        },
      );

      app.post(
        `/${role}/verifyqrCode`,
        {
          preHandler: guard,
          schema: {
            ...common,
            summary: 'Check a code: confirms a pending secret (two-factor goes on), or checks the enabled one',
            body: VerifyCodeBody,
            response: { 200: VerifyCodeResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
          },
        },
        async (request) => {
          const { accountId } = sessionOf(request);
          const now = clock.now();
          const row = await loadTwoFactor(db.db, role, accountId);
          if (!row) throw new HttpError(401, 'Unauthorized');
          const sealed = row.pendingSecret ?? (row.enabled ? row.secret : null);
          if (!sealed) return { verify: false };

          const attempt = await reserveAttempt(db.db, role, accountId, now);
          if (attempt === undefined) return tooMany(role, accountId);
          const secret = open(role, accountId, sealed);
          const step = secret ? matchingStep(secret, request.body.code, now) : null;
          let ok = false;
          if (step !== null) {
            ok = row.pendingSecret
              ? await promotePending(db.db, role, accountId, sealed, step, now)
              : await acceptStep(db.db, role, accountId, sealed, step, now, false);
          }
          if (!ok) await recordFailedAttempt(db.db, role, accountId, attempt, now);
          return { verify: ok };
        },
      );

      app.post(
        `/${role}/remove2FA`,
        {
          preHandler: guard,
          schema: {
            ...common,
            summary: 'Turn two-factor off and delete its secrets',
            response: { 200: MessageResponse, 401: ErrorResponse, 403: ErrorResponse },
          },
        },
        async (request) => {
          await disableTwoFactor(db.db, role, sessionOf(request).accountId, clock.now());
          return { message: TWO_FACTOR_DISABLED };
        },
      );

      app.post(
        `/${role}/verify2FA`,
        {
          // The second login step: the same per-IP limit as the password step.
          config: { rateLimit: { max: config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
          schema: {
            tags: [role, 'two-factor'],
            summary: `Second login step: ${idKey} from the login answer and a code; answers the session token`,
            body: VerifyLoginCodeBody,
            response: { 200: TokenResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
          },
        },
        async (request) => {
          const body = request.body;
          const accountId = body[idKey];
          if (!accountId || body[otherKey] !== undefined) {
            throw new HttpError(400, `${idKey}: Required (and ${otherKey} is not accepted here)`);
          }
          const now = clock.now();
          const row = await loadTwoFactor(db.db, role, accountId);
          // No password step in the last 5 minutes (or no such account): nothing to verify.
          if (!row || !row.enabled || !row.secret || !row.loginUntil || row.loginUntil <= now) {
            throw new HttpError(401, INVALID_CODE);
          }
          const attempt = await reserveAttempt(db.db, role, accountId, now);
          if (attempt === undefined) return tooMany(role, accountId);
          const secret = open(role, accountId, row.secret);
          const step = secret ? matchingStep(secret, body.code, now) : null;
          const ok = step !== null && (await acceptStep(db.db, role, accountId, row.secret, step, now, true));
          if (!ok) {
            await recordFailedAttempt(db.db, role, accountId, attempt, now);
            throw new HttpError(401, INVALID_CODE);
          }
          const token = await createSession(db.db, role, accountId, now, config.sessionTtlHours);
          return { token, role };
        },
      );
    }
  };
}
