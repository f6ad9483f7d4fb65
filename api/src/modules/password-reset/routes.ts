import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, ROLES, type Role } from '@careloop/shared-contracts';
import { securityEvent } from '../../access';
import type { AppDeps } from '../../deps';
import { boundToAccount } from '../../db/account-version';
import { passwordResets } from '../../db/schema';
import { perIpCredentialLimit, route } from '../../http/route';
import { HttpError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { requireStrongPassword } from '../../lib/password-strength';
import { dbNowMinus, dbNowPlus, liveByBothClocks } from '../../lib/db-clock';
import { hashToken, newToken } from '../../lib/tokens';
import { revokeAllSessions } from '../auth/sessions';
import { clearFailures } from '../auth/throttle';
import { NOTICES, sendNotice } from '../notices';
import { accountTables, accountWords, findCredentials } from '../profiles/accounts';
import { removeStoredFiles, takeOver } from '../takeover';

export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for this e-mail, a reset link has been sent.';
export const RESET_DONE_MESSAGE = 'Your password has been reset. You can now log in.';
export const RESET_INVALID =
  "This reset link is invalid or has expired, or the account's e-mail or password changed since it was sent: ask for a new one";
export const RESET_MAIL_SUBJECT = 'Reset your CareLoop password';
export const RESET_TTL_MS = 30 * 60_000;
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
    const token = newToken();
    const issued = await db.db.transaction(async (tx) => {
      // One request at a time per account (the row lock), so parallel requests cannot both pass.
      const t = accountTables[role];
      const [account] = await tx.select({ version: t.securityVersion }).from(t).where(eq(t.id, accountId)).for('update');
      if (!account) return false;
      const recent = await tx
        .select({ createdAt: passwordResets.createdAt })
        .from(passwordResets)
        .where(
          and(
            eq(passwordResets.role, role),
            eq(passwordResets.accountId, accountId),
            gt(passwordResets.createdAt, new Date(now.getTime() - 3_600_000)),
          ),
        );
      // Nobody's mailbox gets flooded: one mail a minute, RESET_MAILS_PER_HOUR an hour; the links
      // already sent stay valid, so the owner loses nothing.
      const lastMinute = recent.some((r) => r.createdAt.getTime() > now.getTime() - 60_000);
      if (lastMinute || recent.length >= RESET_MAILS_PER_HOUR) return false;
      await tx.insert(passwordResets).values({
        tokenHash: hashToken(token),
        role,
        accountId,
        // Bound to the account as it is: an e-mail, password or verification change voids the link.
        accountVersion: account.version,
        createdAt: now,
        expiresAt: dbNowPlus(RESET_TTL_MS),
      });
      // Keep the table small: links dead for a day are of no use to anyone.
      await tx.delete(passwordResets).where(lt(passwordResets.expiresAt, dbNowMinus(86_400_000)));
      return true;
    });
    if (!issued) return;
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
          const live = and(
            eq(passwordResets.tokenHash, hashToken(token)),
            eq(passwordResets.role, role),
            eq(passwordResets.accountId, id),
            isNull(passwordResets.usedAt),
            liveByBothClocks(passwordResets.expiresAt, passwordResets.createdAt, now, RESET_TTL_MS),
            boundToAccount(role, passwordResets.accountVersion, passwordResets.accountId),
          );
          // Checked before the (costly) hash, and again atomically below: a link works once.
          const [found] = await db.db.select({ id: passwordResets.id }).from(passwordResets).where(live).limit(1);
          if (!found) throw new HttpError(400, RESET_INVALID);
          // A refused password leaves the link unused: the person can try a better one.
          requireStrongPassword(request.body.password, await accountWords(db.db, role, id));
          const passwordHash = await hashPassword(request.body.password, config.passwordHashCost);

          const done = await db.db.transaction(async (tx) => {
            const [claimed] = await tx
              .update(passwordResets)
              .set({ usedAt: now })
              .where(live)
              .returning({ id: passwordResets.id });
            if (!claimed) return undefined;
            // On an unverified account the link is the first proof of the address: its owner takes
            // the account over, and whatever an earlier holder set is wiped (modules/takeover).
            const takenOver = await takeOver(tx, { role, accountId: id, passwordHash, now, ip: request.ip });
            const t = accountTables[role];
            const [account] = takenOver
              ? [takenOver]
              : await tx.update(t).set({ passwordHash, updatedAt: now }).where(eq(t.id, id)).returning({ email: t.email });
            if (!account) return undefined;
            // Every other link of the account dies; every session ends; the login lockout lifts.
            // Two-factor stays as it is: a mailbox alone must not be enough to turn it off (unless
            // the account was unverified: then the two-factor was never the owner's).
            await tx
              .update(passwordResets)
              .set({ usedAt: now })
              .where(and(eq(passwordResets.role, role), eq(passwordResets.accountId, id), isNull(passwordResets.usedAt)));
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
