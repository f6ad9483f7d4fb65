import { eq } from 'drizzle-orm';
import { EntityId, registrationName, type DoctorRegister } from '@careloop/shared-contracts';
import type { Queryable } from '../../adapters/db';
import { doctors } from '../../db/schema';
import { securityEvent } from '../../access';

export type VerifyDoctorResult =
  | { outcome: 'verified' | 'already-verified'; doctorId: string; registration: string | null; verifiedAt: Date }
  | { outcome: 'unknown' };

/**
 * An operator verifying a doctor's professional registration (after checking the number in the
 * register): verifiedAt now, verifiedBy `by`, and a 'registration-verified' row in the doctor's
 * security log, in one transaction. THE one way a registration becomes verified: the operator
 * command (ops/verify-doctor.ts) and the test helpers both call this. Verifying twice changes nothing.
 */
export async function verifyDoctorRegistration(
  db: Queryable,
  { doctor: who, by, at }: { doctor: string; by: string; at: Date },
): Promise<VerifyDoctorResult> {
  return db.transaction(async (tx) => {
    const [doctor] = await tx
      .select({
        id: doctors.id,
        register: doctors.registrationRegister,
        number: doctors.registrationNumber,
        verifiedAt: doctors.registrationVerifiedAt,
      })
      .from(doctors)
      // The doctor's account id (as the api's log names a new doctor), or their e-mail (stored lower-cased).
      .where(
        EntityId.safeParse(who.trim()).success
          ? eq(doctors.id, who.trim().toLowerCase())
          : eq(doctors.email, who.trim().toLowerCase()),
      )
      .limit(1)
      .for('update');
    if (!doctor) return { outcome: 'unknown' as const };
    const registration = registrationName({ register: doctor.register as DoctorRegister | null, number: doctor.number });
    if (doctor.verifiedAt)
      return { outcome: 'already-verified' as const, doctorId: doctor.id, registration, verifiedAt: doctor.verifiedAt };
    await tx
      .update(doctors)
      .set({ registrationVerifiedAt: at, registrationVerifiedBy: by, updatedAt: at })
      .where(eq(doctors.id, doctor.id));
    // The operator acts outside any session: no client address.
    await securityEvent(tx, { role: 'doctor', accountId: doctor.id, action: 'registration-verified', at, ip: null });
    return { outcome: 'verified' as const, doctorId: doctor.id, registration, verifiedAt: at };
  });
}
