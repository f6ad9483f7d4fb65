import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { REGISTRATION_UNVERIFIED, type DoctorRegister, type RegistrationStatus } from '@careloop/shared-contracts';
import type { Queryable } from '../adapters/db';
import { qualified } from '../db/qualified';
import { doctors } from '../db/schema';
import { HttpError } from '../lib/errors';

/*
 * A doctor's professional registration: THE rule of which doctor may ask a patient to connect.
 * Deny by default: only a doctor whose registration an operator verified (registration_verified_at
 * set, modules/profiles/registration.ts) may; an account made before registrations were asked is
 * unverified like any other. DOCTOR_VERIFICATION=off (demos only) lifts the rule.
 */

/** 403 unless the doctor's registration was verified (or the rule is off: `enforced` false). */
export async function requireVerifiedRegistration(db: Queryable, doctorId: string, enforced: boolean): Promise<void> {
  if (!enforced) return;
  const [row] = await db
    .select({ id: doctors.id })
    .from(doctors)
    .where(and(eq(doctors.id, doctorId), isNotNull(doctors.registrationVerifiedAt)))
    .limit(1);
  if (!row) throw new HttpError(403, REGISTRATION_UNVERIFIED);
}

/** The columns a registration is read from (select them beside a doctor's others). */
export const registrationColumns = {
  register: doctors.registrationRegister,
  number: doctors.registrationNumber,
  verifiedAt: doctors.registrationVerifiedAt,
};

export function toRegistrationStatus(row: {
  register: string | null;
  number: string | null;
  verifiedAt: Date | null;
}): RegistrationStatus {
  return { register: row.register as DoctorRegister | null, number: row.number, verified: row.verifiedAt !== null };
}

/** The registration as a JSON object in a statement (the patient's list of doctors is one statement). */
export function registrationJson(): SQL<RegistrationStatus> {
  return sql<RegistrationStatus>`json_build_object('register', ${qualified(doctors.registrationRegister)}, 'number', ${qualified(
    doctors.registrationNumber,
  )}, 'verified', ${qualified(doctors.registrationVerifiedAt)} is not null)`;
}
