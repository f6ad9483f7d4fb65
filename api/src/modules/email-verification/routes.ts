import { and, count, desc, eq, gt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES, type Role } from 'shared-contracts';
import { securityEvent } from '../../access';
import type { AppDeps } from '../../deps';
import { accountTables, accountTokens } from '../../db/schema';
import { perIpCredentialLimit, route } from '../../http/route';
import { HttpError, isUniqueViolation } from '../../lib/errors';
import { optionalSessionOf, sessionOf } from '../auth/guard';
import { endOtherSessions } from '../auth/sessions';
import { NOTICES, sendNotice } from '../notices';
import { consumeEmailToken, issueEmailToken, verificationLink } from './tokens';
import {
  ALREADY_VERIFIED,
  RESEND_TOO_MANY,
  RESEND_TOO_SOON,
  resendDone,
  VERIFY_DONE,
  VERIFY_INVALID,
  VERIFY_MAIL_SUBJECT,
  VERIFY_TAKEN,
  verifyMailText,
} from './messages';

/** Resends per account: one a minute, five an hour (the signup's own mail included). */
export const RESEND_MIN_GAP_MS = 60_000;
export const RESENDS_PER_HOUR = 5;

/** Mails the verification link of `token` to `email`. */
export function sendVerificationMail(deps: Pick<AppDeps, 'config' | 'mailer'>, role: Role, email: string, token: string) {
  const link = verificationLink(deps.config.webOrigin, role, token);
  return deps.mailer.send({ to: email, subject: VERIFY_MAIL_SUBJECT, text: verifyMailText(link) });
}

/**
 *   POST /{role}/verify-email/{token}   public: the link from the mail proves the address (once, 24 h)
 *   POST /{role}/verify-email/resend    signed in: a fresh link to the account's unverified address
 */
export function emailVerificationRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  // A link is 256 random bits, so guessing is hopeless; still, the logins' per-IP limit.
  const perIp = perIpCredentialLimit(deps);

  return async (app) => {
    for (const role of ROLES) {
      route(
        app,
        deps,
        ENDPOINTS[`${role}VerifyEmail`],
        async (request) => {
          const now = clock.now();
          const caller = await optionalSessionOf(deps, request);
          const outcome = await db.db
            .transaction(async (tx) => {
              const result = await consumeEmailToken(tx, role, request.params.token, now);
              if (result.ok) {
                await securityEvent(tx, { role, accountId: result.accountId, action: 'email-verify', at: now, ip: request.ip });
                if (result.previousEmail !== result.email) {
                  // An e-mail change in force signs out every other device (the browser that opened the link stays).
                  const own = caller?.role === role && caller.accountId === result.accountId;
                  await endOtherSessions(tx, role, result.accountId, own ? caller.id : null, now);
                }
              }
              // 'taken' commits too: the link is spent either way.
              return result;
            })
            // Two accounts confirming the same address at once: the unique index lets one through.
            .catch((err: unknown) => {
              if (isUniqueViolation(err)) return { ok: false as const, reason: 'taken' as const };
              throw err;
            });
          if (outcome.ok) {
            // An e-mail change is now in force: the old address is told (the new one just proved itself).
            if (outcome.previousEmail !== outcome.email) {
              const notice = NOTICES.emailChanged({ webOrigin: config.webOrigin, role }, outcome.email);
              sendNotice(deps, app.backgroundTasks, outcome.previousEmail, notice);
            }
            return { message: VERIFY_DONE };
          }
          throw outcome.reason === 'taken' ? new HttpError(409, VERIFY_TAKEN) : new HttpError(400, VERIFY_INVALID);
        },
        { config: perIp },
      );

      route(
        app,
        deps,
        ENDPOINTS[`${role}ResendVerification`],
        async (request) => {
          const { accountId } = sessionOf(request);
          const now = clock.now();
          const t = accountTables[role];
          const issued = await db.db.transaction(async (tx) => {
            // The account row is locked so two simultaneous resends cannot both pass the count.
            const [me] = await tx
              .select({ email: t.email, verifiedAt: t.emailVerifiedAt })
              .from(t)
              .where(eq(t.id, accountId))
              .limit(1)
              .for('update');
            if (!me) throw new HttpError(401, 'Unauthorized');
            if (me.verifiedAt) throw new HttpError(409, ALREADY_VERIFIED);
            const mine = and(
              eq(accountTokens.role, role),
              eq(accountTokens.accountId, accountId),
              eq(accountTokens.purpose, 'email-verify'),
              gt(accountTokens.createdAt, new Date(now.getTime() - 3_600_000)),
            );
            const [latest] = await tx
              .select({ at: accountTokens.createdAt })
              .from(accountTokens)
              .where(mine)
              .orderBy(desc(accountTokens.createdAt))
              .limit(1);
            if (latest && now.getTime() - latest.at.getTime() < RESEND_MIN_GAP_MS) throw new HttpError(429, RESEND_TOO_SOON);
            const [{ n }] = await tx.select({ n: count() }).from(accountTokens).where(mine);
            if (Number(n) >= RESENDS_PER_HOUR) throw new HttpError(429, RESEND_TOO_MANY);
            const token = await issueEmailToken(tx, { role, accountId, email: me.email, now });
            return { email: me.email, token };
          });
          // The mail goes out after the answer, as every mail of the api does.
          app.backgroundTasks.run('verification mail', () => sendVerificationMail(deps, role, issued.email, issued.token));
          return { message: resendDone(issued.email) };
        },
        { guardAt: 'preHandler' },
      );
    }
  };
}
