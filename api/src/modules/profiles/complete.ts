import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, type DoctorCompleteProfile, type PatientCompleteProfile, type Role } from 'shared-contracts';
import type { AppDeps } from '../../deps';
import type { Queryable } from '../../adapters/db';
import { doctors, patients } from '../../db/schema';
import { route } from '../../http/route';
import { HttpError } from '../../lib/errors';
import { sessionOf } from '../auth/guard';
import { createSession, revokeSession } from '../auth/sessions';

/** Writes the fields; false when the account no longer exists. */
type Apply<B> = (db: Queryable, accountId: string, body: B, now: Date) => Promise<boolean>;

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
    .where(eq(patients.id, id))
    .returning({ id: patients.id });
  return rows.length === 1;
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
    .where(eq(doctors.id, id))
    .returning({ id: doctors.id });
  return rows.length === 1;
};

/**
 * POST /{role}/complete-profile: every field required (SPEC §5), for accounts made by Google
 * sign-in. The session is rotated: the current token is revoked and a new one answered.
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
            if (!(await apply(tx, session.accountId, request.body as B, now))) return undefined;
            await revokeSession(tx, session.id, now);
            return createSession(tx, role, session.accountId, now, config.sessionTtlHours);
          });
          if (!token) throw new HttpError(401, 'Unauthorized');
          return { token, role };
        },
        { guardAt: 'preHandler' },
      );
    register('patient', applyPatient);
    register('doctor', applyDoctor);
  };
}
