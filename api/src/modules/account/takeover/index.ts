import { and, eq, isNull } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import { namedByClinicalRows, securityEvent, wipeHolderData } from '../../../access';
import type { Queryable, Tx } from '../../../adapters/db';
import type { FileStorage } from '../../../adapters/storage';
import { accountTables, connectionRequests, doctors, patients, recoveryCodes, sessions } from '../../../db/schema';
import { TWO_FACTOR_OFF } from '../../../db/two-factor-off';
import type { BackgroundTasks } from '../../../lib/background';
import { deleteTokens, voidTokens } from '../../../lib/one-time-token';
import { revokeAllSessions } from '../auth/sessions';

// Account takeover by the owner of its address (ASVS V6). An unverified account was made by whoever
// typed the address, who may not own it (account pre-hijack): once the owner proves the address —
// a Google sign-in, or a password reset through the mailed link — everything that earlier holder set
// is wiped in the same transaction, so nothing they planted (a password, a session, two-factor, files,
// allergies, profile data, connections) survives into the owner's account.

/**
 * Removes what an account's holder set up: every session, two-factor (off, secrets and recovery
 * codes gone), unused e-mail links, hand-off codes and reset links, connection requests still
 * pending and connections, and for a patient the medical files and allergies; the profile goes back
 * to its defaults. Runs in the caller's transaction. Returns the storage keys of the removed files,
 * whose objects are deleted once that transaction has committed (removeStoredFiles).
 */
export async function wipeAccount(tx: Queryable, role: Role, accountId: string, now: Date): Promise<string[]> {
  await revokeAllSessions(tx, role, accountId, now);
  const t = accountTables[role];
  await tx
    .update(t)
    .set({ ...TWO_FACTOR_OFF, updatedAt: now })
    .where(eq(t.id, accountId));
  await tx.delete(recoveryCodes).where(and(eq(recoveryCodes.role, role), eq(recoveryCodes.accountId, accountId)));
  await voidTokens(tx, 'all', { role, accountId, now });
  if (role === 'doctor') {
    await tx
      .delete(connectionRequests)
      .where(and(eq(connectionRequests.doctorId, accountId), eq(connectionRequests.status, 'pending')));
    await wipeHolderData(tx, role, accountId);
    await tx
      .update(doctors)
      .set({
        yearsOfExperience: 1,
        specialization: [],
        qualifications: [],
        gender: 'Prefer not to say',
        // The registration was the holder's claim: gone, and never left verified for the owner.
        registrationRegister: null,
        registrationNumber: null,
        registrationVerifiedAt: null,
        registrationVerifiedBy: null,
        updatedAt: now,
      })
      .where(eq(doctors.id, accountId));
    return [];
  }
  await tx
    .delete(connectionRequests)
    .where(and(eq(connectionRequests.patientId, accountId), eq(connectionRequests.status, 'pending')));
  const storageKeys = await wipeHolderData(tx, role, accountId);
  await tx
    .update(patients)
    .set({
      dob: null,
      gender: 'Prefer not to say',
      maritalStatus: 'Unmarried',
      occupation: '',
      addressStreet: '',
      addressCity: '',
      addressState: '',
      addressPinCode: '',
      pregnancy: null,
      // The owner fills the profile in again (as after a first Google sign-in).
      profileComplete: false,
      updatedAt: now,
    })
    .where(eq(patients.id, accountId));
  return storageKeys;
}

/**
 * The owner of the address takes the UNVERIFIED account over: its password becomes `passwordHash`
 * (the owner's new one, or an unusable one for Google), its e-mail is verified, and wipeAccount runs;
 * a 'takeover' row goes to the security log. Undefined when the account is verified (by now): nothing
 * is done then. Conditional on still unverified, so of two racing takeovers one does the work.
 */
export async function takeOver(
  tx: Tx,
  args: { role: Role; accountId: string; passwordHash: string; now: Date; ip: string | null; name?: string },
): Promise<{ storageKeys: string[]; email: string } | undefined> {
  const { role, accountId, now } = args;
  const t = accountTables[role];
  const [taken] = await tx
    .update(t)
    .set({
      passwordHash: args.passwordHash,
      emailVerifiedAt: now,
      updatedAt: now,
      ...(args.name ? { name: args.name } : {}),
    })
    .where(and(eq(t.id, accountId), isNull(t.emailVerifiedAt)))
    .returning({ email: t.email });
  if (!taken) return undefined;
  const storageKeys = await wipeAccount(tx, role, accountId, now);
  await securityEvent(tx, { role, accountId, action: 'takeover', at: now, ip: args.ip });
  return { storageKeys, email: taken.email };
}

/** Deletes the stored objects of removed file rows, after the answer; a failure is logged (the row is gone either way). */
export function removeStoredFiles(
  deps: { storage: Pick<FileStorage, 'delete'> },
  tasks: Pick<BackgroundTasks, 'run'>,
  keys: string[],
): void {
  if (keys.length === 0) return;
  tasks.run('remove files of a wiped account', async () => {
    for (const key of keys) await deps.storage.delete(key);
  });
}

/**
 * Deletes an UNVERIFIED account whose address's owner says they never made it (the verification
 * link proves the address). 'verified': a verified account is never deleted this way;
 * 'has-records': clinical records, prescriptions or reminders name it (they are not ours to drop).
 */
export async function deleteUnverifiedAccount(
  tx: Tx,
  role: Role,
  accountId: string,
  now: Date,
): Promise<{ ok: true; storageKeys: string[] } | { ok: false; reason: 'verified' | 'has-records' | 'gone' }> {
  const t = accountTables[role];
  const [account] = await tx.select({ verifiedAt: t.emailVerifiedAt }).from(t).where(eq(t.id, accountId)).limit(1).for('update');
  if (!account) return { ok: false, reason: 'gone' };
  if (account.verifiedAt) return { ok: false, reason: 'verified' };
  if (await namedByClinicalRows(tx, role, accountId)) return { ok: false, reason: 'has-records' };
  const storageKeys = await wipeAccount(tx, role, accountId, now);
  await tx.delete(sessions).where(and(eq(sessions.role, role), eq(sessions.accountId, accountId)));
  await deleteTokens(tx, { role, accountId });
  // Connection requests of any state and connections go with the row (on delete cascade).
  await tx.delete(t).where(eq(t.id, accountId));
  return { ok: true, storageKeys };
}
