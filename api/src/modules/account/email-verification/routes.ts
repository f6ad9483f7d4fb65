import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES, type Role } from '@careloop/shared-contracts';
import { securityEvent } from '../../../access';
import type { AppDeps } from '../../../deps';
import { accountTables } from '../../../db/schema';
import { perIpCredentialLimit, route } from '../../../http/route';
import { HttpError, isUniqueViolation } from '../../../lib/errors';
import { optionalSessionOf, sessionOf } from '../../../http/guard';
import { endOtherSessions } from '../auth/sessions';
import { NOTICES, sendNotice } from '../notices';
import { confirmCurrentPassword } from '../auth/reauth';
import { deleteUnverifiedAccount, removeStoredFiles } from '../takeover';
import { issueAllowance } from '../../../lib/one-time-token';
import {
  consumeEmailToken,
  EMAIL_VERIFY,
  emailTokenDone,
  findEmailToken,
  issueEmailToken,
  spendEmailToken,
  verificationLink,
} from './tokens';
import {
  ALREADY_VERIFIED,
  DISOWN_CHANGE_DONE,
  DISOWN_DONE,
  DISOWN_HAS_RECORDS,
  DISOWN_VERIFIED,
  RESEND_TOO_MANY,
  RESEND_TOO_SOON,
  resendDone,
  VERIFY_DONE,
  VERIFY_INVALID,
  VERIFY_USED,
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
 *   POST /{role}/verify-email/{token}   public: the link from the mail and the account's password prove the address (once, 24 h)
 *   POST /{role}/verify-email/{token}/disown   public: "I did not create this account" deletes the unverified account
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
          // The link alone proves only a mailbox: the account's password is asked too, so a
          // stranger's link (someone signed up with this address) verifies nothing for them.
          const found = await findEmailToken(db.db, role, request.params.token, now);
          if (!found) {
            // Spent, and the address is the account's, verified: say so (no password asked; nothing changes).
            if (await emailTokenDone(db.db, role, request.params.token)) throw new HttpError(410, VERIFY_USED);
            throw new HttpError(400, VERIFY_INVALID);
          }
          // A wrong password counts as a failed login of the account (throttle.ts) and spends nothing.
          await confirmCurrentPassword(db.db, role, found.accountId, request.body.password, now, {
            client: request.ip,
            slowdownAfter: config.loginSlowdownAfter,
          });
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
        ENDPOINTS[`${role}DisownEmail`],
        async (request) => {
          const now = clock.now();
          const t = accountTables[role];
          const result = await db.db.transaction(async (tx) => {
            // Spent whatever follows: the link is used once.
            const claimed = await spendEmailToken(tx, role, request.params.token, now);
            if (!claimed) return { outcome: 'invalid' as const };
            const [account] = await tx.select({ email: t.email }).from(t).where(eq(t.id, claimed.accountId)).limit(1);
            if (!account) return { outcome: 'invalid' as const };
            if (account.email !== claimed.email) {
              // A link for a new address: its owner refuses it, so the change is dropped, not the account.
              const event = { role, accountId: claimed.accountId, at: now, ip: request.ip };
              await securityEvent(tx, { ...event, action: 'email-change-withdrawn' });
              return { outcome: 'change-dropped' as const };
            }
            const deleted = await deleteUnverifiedAccount(tx, role, claimed.accountId, now);
            if (!deleted.ok) throw new HttpError(409, deleted.reason === 'has-records' ? DISOWN_HAS_RECORDS : DISOWN_VERIFIED);
            return { outcome: 'deleted' as const, storageKeys: deleted.storageKeys };
          });
          if (result.outcome === 'invalid') throw new HttpError(400, VERIFY_INVALID);
          if (result.outcome === 'change-dropped') return { message: DISOWN_CHANGE_DONE };
          removeStoredFiles(deps, app.backgroundTasks, result.storageKeys);
          return { message: DISOWN_DONE };
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
            const allowance = await issueAllowance(tx, EMAIL_VERIFY, {
              role,
              accountId,
              now,
              minGapMs: RESEND_MIN_GAP_MS,
              perHour: RESENDS_PER_HOUR,
            });
            if (allowance === 'too-soon') throw new HttpError(429, RESEND_TOO_SOON);
            if (allowance === 'too-many') throw new HttpError(429, RESEND_TOO_MANY);
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
