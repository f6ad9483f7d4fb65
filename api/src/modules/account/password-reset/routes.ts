import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES, type Role } from '@careloop/shared-contracts';
import { securityEvent } from '../../../access';
import type { AppDeps } from '../../../deps';
import { perIpCredentialLimit, route } from '../../../http/route';
import { HttpError } from '../../../lib/errors';
import { hashPassword } from '../../../lib/password';
import { requireStrongPassword } from '../../../lib/password-strength';
import { consumeToken, issueAllowance, issueToken, peekToken, voidTokens, type TokenKind } from '../../../lib/one-time-token';
import { revokeAllSessions } from '../auth/sessions';
import { clearFailures } from '../auth/throttle';
import { NOTICES, sendNotice } from '../notices';
import { accountTables, accountWords, findCredentials } from '../../profiles/accounts';
import { removeStoredFiles, takeOver } from '../takeover';

export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for this e-mail, a reset link has been sent.';
export const RESET_DONE_MESSAGE = 'Your password has been reset. You can now log in.';
export const RESET_INVALID =
  "This reset link is invalid or has expired, or the account's e-mail or password changed since it was sent: ask for a new one";
export const RESET_MAIL_SUBJECT = 'Reset your CareLoop password';
export const RESET_TTL_MS = 30 * 60_000;
/** The reset link's token: works once, for 30 minutes. */
export const RESET_LINK: TokenKind = { purpose: 'password-reset', lifetimeMs: RESET_TTL_MS, keepMs: 24 * 3_600_000 };
/** Reset mails per account per hour (and never two within a minute). */
export const RESET_MAILS_PER_HOUR = 5;

export function resetMailText(link: string): string {
  return [
    'Hello,',
    '',
    'Someone (hopefully you) asked to reset the password of your CareLoop account.',
    'Open this link to choose a new password:',
    '',
    link,
    '',
    'The link works once and expires in 30 minutes.',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    '',
    'CareLoop',
  ].join('\n');
}

export function passwordResetRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config, mailer } = deps;
  // Each request can hash a password or send mail: the per-IP limit of the logins.
  const perIp = perIpCredentialLimit(deps);

  /**
   * Runs after the answer has gone: the answer and its timing are the same for every e-mail, and
   * for a request the limits below swallow.
   */
  async function issueAndSend(role: Role, accountId: string, email: string, now: Date) {
    const token = await db.db.transaction(async (tx) => {
      // One request at a time per account (the row lock), so parallel requests cannot both pass.
      const t = accountTables[role];
      const [account] = await tx.select({ version: t.securityVersion }).from(t).where(eq(t.id, accountId)).for('update');
      if (!account) return undefined;
      // Nobody's mailbox gets flooded: one mail a minute, RESET_MAILS_PER_HOUR an hour; the links
      // already sent stay valid, so the owner loses nothing.
      const allowance = await issueAllowance(tx, RESET_LINK, {
        role,
        accountId,
        now,
        minGapMs: 60_000,
        perHour: RESET_MAILS_PER_HOUR,
      });
      if (allowance !== 'ok') return undefined;
      // Bound to the account as it is: an e-mail, password or verification change voids the link.
      return issueToken(tx, RESET_LINK, { role, accountId, now, accountVersion: account.version });
    });
    if (!token) return;
    const link = `${config.webOrigin}/${role}/reset-password/${accountId}/${token}`;
    await mailer.send({ to: email, subject: RESET_MAIL_SUBJECT, text: resetMailText(link) });
  }

  return async (app) => {
    for (const role of ROLES) {
      route(
        app,
        deps,
        ENDPOINTS[`${role}ForgotPassword`],
        async (request) => {
          const { email } = request.body;
          const account = await findCredentials(db.db, role, email);
          if (account) app.backgroundTasks.run('password reset mail', () => issueAndSend(role, account.id, email, clock.now()));
          return { message: FORGOT_PASSWORD_MESSAGE };
        },
        { config: perIp },
      );

      route(
        app,
        deps,
        ENDPOINTS[`${role}ResetPassword`],
        async (request) => {
          const { id, token } = request.params;
          const now = clock.now();
          const link = { role, accountId: id, token };
          // Checked before the (costly) hash, and again atomically below: a link works once.
          if (!(await peekToken(db.db, RESET_LINK, link, now))) throw new HttpError(400, RESET_INVALID);
          // A refused password leaves the link unused: the person can try a better one.
          requireStrongPassword(request.body.password, await accountWords(db.db, role, id));
          const passwordHash = await hashPassword(request.body.password, config.passwordHashCost);

          const done = await db.db.transaction(async (tx) => {
            if (!(await consumeToken(tx, RESET_LINK, link, now))) return undefined;
            // On an unverified account the link is the first proof of the address: its owner takes
            // the account over, and whatever an earlier holder set is wiped (modules/account/takeover).
            const takenOver = await takeOver(tx, { role, accountId: id, passwordHash, now, ip: request.ip });
            const t = accountTables[role];
            const [account] = takenOver
              ? [takenOver]
              : await tx.update(t).set({ passwordHash, updatedAt: now }).where(eq(t.id, id)).returning({ email: t.email });
            if (!account) return undefined;
            // Every other link of the account dies; every session ends; the login lockout lifts.
            // Two-factor stays as it is: a mailbox alone must not be enough to turn it off (unless
            // the account was unverified: then the two-factor was never the owner's).
            await voidTokens(tx, RESET_LINK, { role, accountId: id, now });
            await revokeAllSessions(tx, role, id, now);
            await clearFailures(tx, role, account.email);
            await securityEvent(tx, { role, accountId: id, action: 'password-reset', at: now, ip: request.ip });
            return { takenOver };
          });
          if (done?.takenOver) {
            removeStoredFiles(deps, app.backgroundTasks, done.takenOver.storageKeys);
            const notice = NOTICES.takenOver({ webOrigin: config.webOrigin, role });
            sendNotice(deps, app.backgroundTasks, done.takenOver.email, notice);
          }
          if (!done) throw new HttpError(400, RESET_INVALID);
          return { message: RESET_DONE_MESSAGE };
        },
        { config: perIp },
      );
    }
  };
}
