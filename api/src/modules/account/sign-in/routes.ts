import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES, type Role } from '@careloop/shared-contracts';
import { securityEvent, signedInFrom } from '../../../access';
import type { AppDeps } from '../../../deps';
import { perIpCredentialLimit, route } from '../../../http/route';
import { HttpError, isUniqueViolation } from '../../../lib/errors';
import { dummyHash, hashPassword, verifyPassword } from '../../../lib/password';
import { requireStrongPassword } from '../../../lib/password-strength';
import { findCredentials } from '../../profiles/accounts';
import { PROFILES } from '../../profiles';
import { sessionOf } from '../../../http/guard';
import { BAD_CREDENTIALS, DUPLICATE_EMAIL } from '../auth/messages';
import { createSession, deviceOf, deleteExpiredSessions, revokeSession, type SessionDevice } from '../auth/sessions';
import {
  admitToAccount,
  clearPairFailures,
  KNOWN_CLIENT_MS,
  pairLockedUntil,
  recordFailure,
  tooManyAttempts,
} from '../auth/throttle';
import { openLoginWindow } from '../two-factor/store';
import { sendVerificationMail } from '../email-verification/routes';
import { issueEmailToken } from '../email-verification/tokens';
import { verifyDoctorCommand } from '../../../ops/verify-doctor';

/** The nil UUID: no account has it. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

// Sign-up, login and logout for both roles. Kept apart from modules/account/auth (sessions, guard,
// throttle), which every other module uses: this file needs profiles and two-factor, and
// living in auth it would make auth ↔ profiles ↔ two-factor a cycle.
export function authRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  // Signup and login run a memory-hard hash: one per-IP limit.
  const perIp = perIpCredentialLimit(deps);

  return async (app) => {
    for (const role of ROLES) {
      const profile = PROFILES[role];

      route(
        app,
        deps,
        ENDPOINTS[`${role}Signup`],
        async (request, reply) => {
          const body = request.body as { name: string; email: string; password: string };
          requireStrongPassword(body.password, [body.name, body.email]);
          const passwordHash = await hashPassword(body.password, config.passwordHashCost);
          const now = clock.now();
          try {
            const email = (request.body as { email: string }).email;
            // One transaction: no account without its first session and its verification link.
            const { id, token, verifyToken } = await db.db.transaction(async (tx) => {
              const id = await profile.create(tx, body, passwordHash);
              return {
                id,
                token: await createSession(tx, role, id, now, config.sessionMaxHours, deviceOf(request)),
                verifyToken: await issueEmailToken(tx, { role, accountId: id, email, now }),
              };
            });
            // The link is mailed after the answer (SPEC: signup still answers { token, role }).
            app.backgroundTasks.run('verification mail', () => sendVerificationMail(deps, role, email, verifyToken));
            // On the embedded default (no DATABASE_URL: a demo on one machine, its operator reading this
            // log) the command that verifies the new doctor is printed, naming them by account id: a log
            // line never holds a person's e-mail. Elsewhere the operator has the e-mail from the doctor.
            if (role === 'doctor' && config.doctorVerification && !config.databaseUrl) {
              request.log.info(`a doctor signed up; once their registration is checked: ${verifyDoctorCommand(id)}`);
            }
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
        async (request) => login(role, request.body.email, request.body.password, request.ip, deviceOf(request)),
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

    async function login(role: Role, email: string, password: string, ip: string, device: SessionDevice) {
      const now = clock.now();
      const attempt = { role, email, client: ip, now, slowdownAfter: config.loginSlowdownAfter };
      // This address's own lockout first (auth/throttle.ts explains the design).
      const until = await pairLockedUntil(db.db, attempt);
      if (until) throw tooManyAttempts(until.getTime() - now.getTime());
      const account = await findCredentials(db.db, role, email);
      // Then the account's pace, which the owner's usual addresses skip.
      // An unknown e-mail runs the same query (on an id no account has): no timing difference.
      const admission = await admitToAccount(db.db, attempt, () =>
        signedInFrom(db.db, role, account?.id ?? NO_ACCOUNT, ip, new Date(now.getTime() - KNOWN_CLIENT_MS)),
      );
      if (!admission.ok) throw tooManyAttempts(admission.retryAfterMs);
      // Unknown e-mails are checked against a dummy hash: same scrypt time, no enumeration by timing.
      const ok = await verifyPassword(password, account?.passwordHash ?? (await dummyHash(config.passwordHashCost)));
      if (!account || !ok) {
        await db.db.transaction(async (tx) => {
          await recordFailure(tx, attempt);
          // Recorded for an existing account only: an unknown e-mail has no owner to show it to.
          if (account) await securityEvent(tx, { role, accountId: account.id, action: 'sign-in-failed', at: now, ip });
        });
        throw new HttpError(401, BAD_CREDENTIALS);
      }
      await clearPairFailures(db.db, role, email, ip);
      await deleteExpiredSessions(db.db);
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
        return createSession(tx, role, account.id, now, config.sessionMaxHours, device);
      });
      return { twoFactorRequired: false, token, role };
    }
  };
}
