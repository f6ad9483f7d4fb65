import { and, eq, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, type DoctorCompleteProfile, type PatientCompleteProfile, type Role } from '@careloop/shared-contracts';
import type { AppDeps } from '../../deps';
import type { Queryable } from '../../adapters/db';
import { doctors, patients } from '../../db/schema';
import { route } from '../../http/route';
import { HttpError } from '../../lib/errors';
import { sessionOf } from '../../http/guard';
import { createSession, deviceOf, revokeSession } from '../account/auth/sessions';

/**
 * Writes the fields of a profile that is still incomplete: 'done'; 'complete' when it was
 * complete already (complete-profile must not overwrite it: PATCH /{role}/me edits it), 'gone'
 * when the account no longer exists.
 */
type Apply<B> = (db: Queryable, accountId: string, body: B, now: Date) => Promise<'done' | 'complete' | 'gone'>;

const outcome = async (updated: number, exists: () => Promise<unknown[]>) =>
  updated === 1 ? 'done' : (await exists()).length === 1 ? 'complete' : 'gone';

const applyPatient: Apply<PatientCompleteProfile> = async (db, id, b, now) => {
  const rows = await db
    .update(patients)
    .set({
      dob: b.DOB,
      gender: b.gender,
      maritalStatus: b.maritalStatus,
      occupation: b.occupation,
      addressStreet: b.address.street,
      addressCity: b.address.city,
      addressState: b.address.state,
      addressPinCode: b.address.pinCode,
      profileComplete: true,
      updatedAt: now,
    })
    // Incomplete: an account made by Google sign-in, until this call.
    .where(and(eq(patients.id, id), eq(patients.profileComplete, false)))
    .returning({ id: patients.id });
  return outcome(rows.length, () => db.select({ id: patients.id }).from(patients).where(eq(patients.id, id)));
};

const applyDoctor: Apply<DoctorCompleteProfile> = async (db, id, b, now) => {
  const rows = await db
    .update(doctors)
    .set({
      gender: b.gender,
      specialization: b.specialization,
      yearsOfExperience: b.yearsOfExperience,
      qualifications: b.qualifications,
      updatedAt: now,
    })
    // Doctors have no completeness flag: incomplete while a list this call requires is empty.
    .where(
      and(
        eq(doctors.id, id),
        or(sql`cardinality(${doctors.specialization}) = 0`, sql`cardinality(${doctors.qualifications}) = 0`),
      ),
    )
    .returning({ id: doctors.id });
  return outcome(rows.length, () => db.select({ id: doctors.id }).from(doctors).where(eq(doctors.id, id)));
};

/**
 * POST /{role}/complete-profile: every field required (SPEC §5), for accounts made by Google
 * sign-in, and only while the profile is incomplete (409 after). The session is rotated: the current token is revoked and a new one answered.
 */
export function completeProfileRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  return async (app) => {
    const register = <B>(role: Role, apply: Apply<B>) =>
      route(
        app,
        deps,
        ENDPOINTS[`${role}CompleteProfile`],
        async (request) => {
          const session = sessionOf(request);
          const now = clock.now();
          const token = await db.db.transaction(async (tx) => {
            const result = await apply(tx, session.accountId, request.body as B, now);
            if (result === 'gone') throw new HttpError(401, 'Unauthorized');
            if (result === 'complete') {
              throw new HttpError(409, 'This profile is already complete; change it on the edit profile page');
            }
            await revokeSession(tx, session.id, now);
            return createSession(tx, role, session.accountId, now, config.sessionMaxHours, deviceOf(request));
          });
          return { token, role };
        },
        { guardAt: 'preHandler' },
      );
    register('patient', applyPatient);
    register('doctor', applyDoctor);
  };
}
