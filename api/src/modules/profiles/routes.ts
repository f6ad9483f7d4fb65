import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CURRENT_PASSWORD_REQUIRED, ENDPOINTS, ROLES, type DoctorMeResponse } from '@careloop/shared-contracts';
import { actorOf, auditPatientsListed, securityEvent } from '../../access';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { HttpError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { requireStrongPassword } from '../../lib/password-strength';
import { sessionOf } from '../../http/guard';
import { DUPLICATE_EMAIL } from '../account/auth/messages';
import { confirmCurrentPassword } from '../account/auth/reauth';
import { createSession, deviceOf, revokeAllSessions } from '../account/auth/sessions';
import {
  dropPendingEmailTokens,
  EMAIL_TOKEN_TTL_MS,
  issueEmailToken,
  pendingEmailOf,
  verificationLink,
} from '../account/email-verification/tokens';
import { NOTICES, sendNotice } from '../account/notices';
import { accountTables, accountWords } from './accounts';
import { PROFILES } from './index';

export function profileRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  // The guard runs after validation here, as it always has: bad input keeps its status.
  const onlyAfterInput = { guardAt: 'preHandler' } as const;

  return async (app) => {
    for (const role of ROLES) {
      const profile = PROFILES[role];

      async function current(accountId: string) {
        const me = await profile.load(db.db, accountId, clock.now(), config);
        // A session whose account is gone is as good as no session.
        if (!me) throw new HttpError(401, 'Unauthorized');
        return me;
      }

      const loadBySession = profile.loadBySession?.bind(profile);
      route(
        app,
        deps,
        ENDPOINTS[`${role}Me`],
        // Read with the session when the guard's one statement found both; else on its own.
        async (request) => {
          const me =
            (request.sessionRead as Awaited<ReturnType<typeof current>> | undefined) ??
            (await current(sessionOf(request).accountId));
          // A doctor's profile lists their patients: audited like every read of patient data.
          if ('doctor' in me) {
            const { assignedPatients } = (me as DoctorMeResponse).doctor;
            const patientIds = assignedPatients.map((p) => p.patient);
            await auditPatientsListed(db.db, actorOf(request, clock), patientIds);
          }
          return me;
        },
        {
          ...onlyAfterInput,
          ...(loadBySession
            ? {
                sessionRead: async (token, now) => {
                  const found = await loadBySession(db.db, token, now, config);
                  return found && { session: found.session, read: found.me };
                },
              }
            : {}),
        },
      );

      route(
        app,
        deps,
        ENDPOINTS[`${role}UpdateMe`],
        async (request) => {
          const { accountId } = sessionOf(request);
          const { password, currentPassword, email, ...fields } = request.body as {
            password?: string;
            currentPassword?: string;
            email?: string;
          } & Record<string, unknown>;
          if (password === undefined && email === undefined && Object.keys(fields).length === 0) {
            throw new HttpError(400, 'body: Nothing to update: send at least one field');
          }
          if (password !== undefined) {
            // Judged against the account's words as they are and as this request would make them.
            const words = [...(await accountWords(db.db, role, accountId)), fields.name as string | undefined, email];
            requireStrongPassword(password, words);
          }
          const now = clock.now();
          const t = accountTables[role];
          const [account] = await db.db.select({ email: t.email }).from(t).where(eq(t.id, accountId)).limit(1);
          if (!account) throw new HttpError(401, 'Unauthorized');
          // The edit form sends the e-mail unchanged too: only a different address is an e-mail change.
          const newEmail = email !== undefined && email.toLowerCase() !== account.email.toLowerCase() ? email : undefined;
          if (password !== undefined || newEmail !== undefined) {
            // A session alone may not take the account over: the password is asked again.
            if (currentPassword === undefined) throw new HttpError(400, `currentPassword: ${CURRENT_PASSWORD_REQUIRED}`);
            await confirmCurrentPassword(db.db, role, accountId, currentPassword, now, {
              client: request.ip,
              slowdownAfter: config.loginSlowdownAfter,
            });
          }
          if (newEmail !== undefined) {
            // Refused now rather than when the link is used (consumeEmailToken checks again then).
            const [taken] = await db.db.select({ id: t.id }).from(t).where(eq(t.email, newEmail)).limit(1);
            if (taken) throw new HttpError(409, DUPLICATE_EMAIL);
          }
          const passwordHash = password === undefined ? undefined : await hashPassword(password, config.passwordHashCost);
          const { token, emailToken } = await db.db.transaction(async (tx) => {
            await profile.update(tx, accountId, fields, passwordHash, now);
            const event = { role, accountId, at: now, ip: request.ip };
            let emailToken: string | undefined;
            if (newEmail !== undefined) {
              // The address stays as it is until the link mailed to the new one is used.
              const current = { role, accountId, currentEmail: account.email, now };
              await dropPendingEmailTokens(tx, current);
              emailToken = await issueEmailToken(tx, { role, accountId, email: newEmail, now });
              await securityEvent(tx, { ...event, action: 'email-change' });
            }
            if (!passwordHash) return { token: undefined, emailToken };
            await securityEvent(tx, { ...event, action: 'password-change' });
            // A new password ends every session of the account, this one included.
            await revokeAllSessions(tx, role, accountId, now);
            return {
              token: await createSession(tx, role, accountId, now, config.sessionMaxHours, deviceOf(request)),
              emailToken,
            };
          });
          const at = { webOrigin: config.webOrigin, role };
          if (passwordHash) sendNotice(deps, app.backgroundTasks, account.email, NOTICES.passwordChanged(at));
          if (newEmail !== undefined && emailToken) {
            const link = verificationLink(config.webOrigin, role, emailToken);
            sendNotice(deps, app.backgroundTasks, newEmail, NOTICES.confirmNewEmail(link, EMAIL_TOKEN_TTL_MS / 3_600_000));
            sendNotice(deps, app.backgroundTasks, account.email, NOTICES.emailChangeAsked(at, newEmail));
          }
          const me = await current(accountId);
          return token ? { ...me, token } : me;
        },
        onlyAfterInput,
      );

      route(
        app,
        deps,
        ENDPOINTS[`${role}WithdrawPendingEmail`],
        async (request) => {
          const { accountId } = sessionOf(request);
          const now = clock.now();
          const t = accountTables[role];
          const withdrawn = await db.db.transaction(async (tx) => {
            const [account] = await tx.select({ email: t.email }).from(t).where(eq(t.id, accountId)).limit(1).for('update');
            if (!account) throw new HttpError(401, 'Unauthorized');
            const current = { role, accountId, currentEmail: account.email, now };
            if (!(await pendingEmailOf(tx, current))) return false;
            await dropPendingEmailTokens(tx, current);
            await securityEvent(tx, { role, accountId, action: 'email-change-withdrawn', at: now, ip: request.ip });
            return true;
          });
          if (!withdrawn) throw new HttpError(404, NO_PENDING_EMAIL);
          return { message: PENDING_EMAIL_WITHDRAWN };
        },
        onlyAfterInput,
      );
    }
  };
}

const NO_PENDING_EMAIL = 'No e-mail change is waiting for confirmation';
const PENDING_EMAIL_WITHDRAWN = 'The e-mail change was withdrawn: the link sent to the new address no longer works.';
