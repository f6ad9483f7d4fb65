import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES, TWO_FACTOR_ALREADY_ON, TWO_FACTOR_CODE_WRONG, type Role } from '@careloop/shared-contracts';
import { securityEvent } from '../../../access';
import type { AppDeps } from '../../../deps';
import { perIpCredentialLimit, route } from '../../../http/route';
import { HttpError } from '../../../lib/errors';
import { sessionOf } from '../../../http/guard';
import { confirmCurrentPassword } from '../auth/reauth';
import { createSession, deviceOf, endOtherSessions } from '../auth/sessions';
import { NOTICES, sendNotice } from '../notices';
import {
  acceptStep,
  closeLoginWindow,
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
import { consumeRecoveryCode, deleteRecoveryCodes, remainingRecoveryCodes, replaceRecoveryCodes } from './recovery-codes';

/** Rolls back a login transaction whose recovery code was not accepted. */
class CodeRefused extends Error {}

export const INVALID_CODE = 'Invalid or expired code';
export const TWO_FACTOR_DISABLED = 'Two-factor authentication disabled';
export const RECOVERY_CODES_NEED_TWO_FACTOR = 'Recovery codes are made for two-factor authentication: turn it on first';

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

  // The guard runs after validation here, as it always has: bad input keeps its status.
  const afterInput = { guardAt: 'preHandler' } as const;

  return async (app) => {
    for (const role of ROLES) {
      const idKey = role === 'patient' ? 'patientId' : 'doctorId';
      const otherKey = role === 'patient' ? 'doctorId' : 'patientId';

      route(
        app,
        deps,
        ENDPOINTS[`${role}TwoFactorSetup`],
        async (request, reply) => {
          const { accountId } = sessionOf(request);
          const row = await loadTwoFactor(db.db, role, accountId);
          if (!row) throw new HttpError(401, 'Unauthorized');
          // Re-enrolling over a working secret would let a stolen session swap in its own
          // authenticator: turning it off (which asks for a code or the password) comes first.
          if (row.enabled) throw new HttpError(409, TWO_FACTOR_ALREADY_ON);
          const secret = newTotpSecret();
          // Replaces any pending secret; an enabled one keeps working until this one is verified.
          await setPendingSecret(db.db, role, accountId, secretBox.encrypt(secret, secretContext(role, accountId)), clock.now());
          reply.header('cache-control', 'no-store');
          return setupMaterial(secret, row.email);
        },
        afterInput,
      );

      route(
        app,
        deps,
        ENDPOINTS[`${role}VerifyTwoFactorCode`],
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
          if (step !== null && row.pendingSecret) {
            // Turning two-factor on (or re-enrolling) is a security event, in the same transaction,
            // and makes the account's recovery codes (answered this once, stored hashed).
            const recoveryCodes = await db.db.transaction(async (tx) => {
              if (!(await promotePending(tx, role, accountId, sealed, step, now))) return undefined;
              await securityEvent(tx, { role, accountId, action: '2fa-on', at: now, ip: request.ip });
              // The other devices signed in without the second factor: they sign in again.
              await endOtherSessions(tx, role, accountId, sessionOf(request).id, now);
              return replaceRecoveryCodes(tx, role, accountId, now);
            });
            if (recoveryCodes) {
              sendNotice(deps, app.backgroundTasks, row.email, NOTICES.twoFactorOn({ webOrigin: config.webOrigin, role }));
              return { verify: true, recoveryCodes };
            }
          } else if (step !== null) {
            ok = await acceptStep(db.db, role, accountId, sealed, step, now, false);
          }
          if (!ok) await recordFailedAttempt(db.db, role, accountId, attempt, now);
          return { verify: ok };
        },
        afterInput,
      );

      route(
        app,
        deps,
        ENDPOINTS[`${role}RemoveTwoFactor`],
        async (request) => {
          const { accountId } = sessionOf(request);
          const now = clock.now();
          const row = await loadTwoFactor(db.db, role, accountId);
          if (!row) throw new HttpError(401, 'Unauthorized');
          const body = request.body;
          if ('code' in body) {
            // A code of the enabled secret, counted like any other code (5 wrong ones lock for
            // 15 minutes) and accepted once (no replay).
            const attempt = await reserveAttempt(db.db, role, accountId, now);
            if (attempt === undefined) return tooMany(role, accountId);
            const sealed = row.enabled ? row.secret : null;
            const secret = sealed ? open(role, accountId, sealed) : undefined;
            const step = secret ? matchingStep(secret, body.code, now) : null;
            const ok = sealed !== null && step !== null && (await acceptStep(db.db, role, accountId, sealed, step, now, false));
            if (!ok) {
              await recordFailedAttempt(db.db, role, accountId, attempt, now);
              throw new HttpError(403, TWO_FACTOR_CODE_WRONG);
            }
          } else {
            await confirmCurrentPassword(db.db, role, accountId, body.currentPassword, now, {
              client: request.ip,
              slowdownAfter: config.loginSlowdownAfter,
            });
          }
          await db.db.transaction(async (tx) => {
            await disableTwoFactor(tx, role, accountId, now);
            await deleteRecoveryCodes(tx, role, accountId);
            // Only a real change is an event and a notice (a pending, never verified secret is just dropped).
            if (row.enabled) {
              await securityEvent(tx, { role, accountId, action: '2fa-off', at: now, ip: request.ip });
              await endOtherSessions(tx, role, accountId, sessionOf(request).id, now);
            }
          });
          if (row.enabled) {
            sendNotice(deps, app.backgroundTasks, row.email, NOTICES.twoFactorOff({ webOrigin: config.webOrigin, role }));
          }
          return { message: TWO_FACTOR_DISABLED };
        },
        afterInput,
      );

      route(app, deps, ENDPOINTS[`${role}RecoveryCodesStatus`], async (request) => {
        const { accountId } = sessionOf(request);
        return { remaining: await remainingRecoveryCodes(db.db, role, accountId) };
      });

      route(
        app,
        deps,
        ENDPOINTS[`${role}RegenerateRecoveryCodes`],
        async (request, reply) => {
          const { accountId } = sessionOf(request);
          const now = clock.now();
          // Re-authentication first: a stolen session alone must not learn a way past two-factor.
          await confirmCurrentPassword(db.db, role, accountId, request.body.currentPassword, now, {
            client: request.ip,
            slowdownAfter: config.loginSlowdownAfter,
          });
          const row = await loadTwoFactor(db.db, role, accountId);
          if (!row) throw new HttpError(401, 'Unauthorized');
          if (!row.enabled) throw new HttpError(409, RECOVERY_CODES_NEED_TWO_FACTOR);
          const recoveryCodes = await db.db.transaction(async (tx) => {
            const codes = await replaceRecoveryCodes(tx, role, accountId, now);
            await securityEvent(tx, { role, accountId, action: 'recovery-codes', at: now, ip: request.ip });
            return codes;
          });
          reply.header('cache-control', 'no-store');
          return { recoveryCodes };
        },
        afterInput,
      );

      route(
        app,
        deps,
        ENDPOINTS[`${role}VerifyLoginCode`],
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
          const isTotp = /^\d{6}$/.test(body.code);
          let token: string | undefined;
          if (isTotp) {
            const secret = open(role, accountId, row.secret);
            const step = secret ? matchingStep(secret, body.code, now) : null;
            if (step !== null && (await acceptStep(db.db, role, accountId, row.secret, step, now, true))) {
              token = await db.db.transaction(async (tx) => {
                await securityEvent(tx, { role, accountId, action: 'sign-in', at: now, ip: request.ip });
                return createSession(tx, role, accountId, now, config.sessionMaxHours, deviceOf(request));
              });
            }
          } else {
            // A recovery code: used up and the login window closed together, or neither. It stands
            // for a lost authenticator, so every other session of the account is signed out.
            token = await db.db
              .transaction(async (tx) => {
                const closed = await closeLoginWindow(tx, role, accountId, now);
                if (!closed || !(await consumeRecoveryCode(tx, role, accountId, body.code, now))) throw new CodeRefused();
                await endOtherSessions(tx, role, accountId, null, now);
                await securityEvent(tx, { role, accountId, action: 'recovery-code-sign-in', at: now, ip: request.ip });
                return createSession(tx, role, accountId, now, config.sessionMaxHours, deviceOf(request));
              })
              .catch((err: unknown) => {
                if (err instanceof CodeRefused) return undefined;
                throw err;
              });
            if (token) {
              const left = await remainingRecoveryCodes(db.db, role, accountId);
              sendNotice(
                deps,
                app.backgroundTasks,
                row.email,
                NOTICES.recoveryCodeSignIn({ webOrigin: config.webOrigin, role }, left),
              );
            }
          }
          if (!token) {
            // The password was right, the code was not: the owner should see it in the security log.
            await db.db.transaction(async (tx) => {
              await recordFailedAttempt(tx, role, accountId, attempt, now);
              await securityEvent(tx, { role, accountId, action: 'sign-in-failed', at: now, ip: request.ip });
            });
            throw new HttpError(401, INVALID_CODE);
          }
          return { token, role };
        },
        // The second login step: the same per-IP limit as the password step.
        { config: perIpCredentialLimit(deps) },
      );
    }
  };
}
