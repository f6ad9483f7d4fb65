import { eq } from 'drizzle-orm';
import type { Role } from '@careloop/shared-contracts';
import type { Queryable } from '../adapters/db';
import { allergyIntolerances, assignments, medicalFiles, medicalRecords, prescriptions, reminders } from '../db/schema';
import { deleteNotificationsOf } from './notifications';

// System actor: the owner of an address taking over (or disowning) an account an unverified holder
// set up (modules/account/takeover). Runs in that module's transaction; no caller's permission is involved —
// the proof is the mailed link or Google's verified e-mail.

/**
 * Deletes what an unverified holder put into the account: its connections, and for a patient the
 * allergies and medical-file rows; its notifications and their settings. Returns the storage keys of the removed files (their objects are
 * deleted after the commit).
 */
export async function wipeHolderData(tx: Queryable, role: Role, accountId: string): Promise<string[]> {
  await deleteNotificationsOf(tx, role, accountId);
  if (role === 'doctor') {
    await tx.delete(assignments).where(eq(assignments.doctorId, accountId));
    return [];
  }
  await tx.delete(assignments).where(eq(assignments.patientId, accountId));
  await tx.delete(allergyIntolerances).where(eq(allergyIntolerances.patientId, accountId));
  const files = await tx
    .delete(medicalFiles)
    .where(eq(medicalFiles.patientId, accountId))
    .returning({ key: medicalFiles.storageKey });
  return files.map((f) => f.key);
}

/** Whether clinical records, prescriptions or reminders name the account (then it is never deleted). */
export async function namedByClinicalRows(tx: Queryable, role: Role, accountId: string): Promise<boolean> {
  const key = role === 'patient' ? 'patientId' : 'doctorId';
  const found = [
    await tx.select({ id: medicalRecords.id }).from(medicalRecords).where(eq(medicalRecords[key], accountId)).limit(1),
    await tx.select({ id: prescriptions.id }).from(prescriptions).where(eq(prescriptions[key], accountId)).limit(1),
    await tx.select({ id: reminders.id }).from(reminders).where(eq(reminders[key], accountId)).limit(1),
  ];
  return found.some((rows) => rows.length > 0);
}
