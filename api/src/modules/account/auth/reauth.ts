import { eq } from 'drizzle-orm';
import { CURRENT_PASSWORD_WRONG, type Role } from '@careloop/shared-contracts';
import type { Queryable } from '../../../adapters/db';
import { doctors, patients } from '../../../db/schema';
import { HttpError } from '../../../lib/errors';
import { verifyPassword } from '../../../lib/password';
import { clearPairFailures, pairLockedUntil, recordFailure, tooManyAttempts } from './throttle';

// Re-authentication: a session token alone must not change the password or e-mail or turn
// two-factor off (a stolen token would be a permanent takeover). A wrong current password counts
// as a failed login of the account's e-mail from the caller's address (throttle.ts), so guessing
// it through a stolen session is locked out like guessing it at the login form; a right one ends
// that address's streak.

/** Throws 429 while the account's e-mail is locked out, 403 for a wrong password (and counts it). */
export async function confirmCurrentPassword(
  db: Queryable,
  role: Role,
  accountId: string,
  currentPassword: string,
  now: Date,
  from: { client: string; slowdownAfter: number },
): Promise<void> {
  const t = role === 'patient' ? patients : doctors;
  const [account] = await db.select({ email: t.email, passwordHash: t.passwordHash }).from(t).where(eq(t.id, accountId)).limit(1);
  // A session whose account is gone is as good as no session.
  if (!account) throw new HttpError(401, 'Unauthorized');
  const attempt = { role, email: account.email, client: from.client, now, slowdownAfter: from.slowdownAfter };
  const until = await pairLockedUntil(db, attempt);
  if (until) throw tooManyAttempts(until.getTime() - now.getTime());
  if (!(await verifyPassword(currentPassword, account.passwordHash))) {
    await recordFailure(db, attempt);
    throw new HttpError(403, CURRENT_PASSWORD_WRONG);
  }
  await clearPairFailures(db, role, account.email, from.client);
}
