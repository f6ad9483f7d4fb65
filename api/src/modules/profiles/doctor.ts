import { eq } from 'drizzle-orm';
import {
  DoctorMeResponse,
  DoctorProfileUpdate,
  DoctorSignup,
  DoctorUpdateResponse,
  type Doctor,
  type Gender,
} from '@careloop/shared-contracts';
import type { z } from 'zod';
import { doctors } from '../../db/schema';
import { assignedPatientsOf, registrationColumns, toRegistrationStatus } from '../../access';
import { pendingEmailOf } from '../account/email-verification/tokens';
import type { ProfileSpec } from './spec';

/** The columns a profile shows, and only those (never the password hash or the two-factor secrets). */
const PROFILE_COLUMNS = {
  id: doctors.id,
  name: doctors.name,
  email: doctors.email,
  yearsOfExperience: doctors.yearsOfExperience,
  specialization: doctors.specialization,
  qualifications: doctors.qualifications,
  gender: doctors.gender,
  twoFactorEnabled: doctors.twoFactorEnabled,
  emailVerifiedAt: doctors.emailVerifiedAt,
  ...registrationColumns,
};
type Row = Pick<typeof doctors.$inferSelect, Exclude<keyof typeof PROFILE_COLUMNS, keyof typeof registrationColumns>> &
  Parameters<typeof toRegistrationStatus>[0];
type Update = z.output<typeof DoctorProfileUpdate>;

function toDoctor(
  r: Row,
  assignedPatients: Doctor['assignedPatients'],
  pendingEmail: string | null,
  doctorVerification: boolean,
): Doctor {
  return {
    _id: r.id,
    name: r.name,
    email: r.email,
    yearsOfExperience: r.yearsOfExperience,
    specialization: r.specialization,
    qualifications: r.qualifications,
    gender: r.gender as Gender,
    assignedPatients,
    twoFactorEnabled: r.twoFactorEnabled,
    pendingEmail,
    emailVerified: r.emailVerifiedAt !== null,
    registration: toRegistrationStatus(r),
    mayRequestConnections: r.verifiedAt !== null || !doctorVerification,
  };
}

export const doctorProfile: ProfileSpec<
  'doctor',
  typeof DoctorSignup,
  typeof DoctorProfileUpdate,
  typeof DoctorMeResponse,
  typeof DoctorUpdateResponse
> = {
  role: 'doctor',
  signupBody: DoctorSignup,
  updateBody: DoctorProfileUpdate,
  meResponse: DoctorMeResponse,
  updateResponse: DoctorUpdateResponse,

  async create(db, input, passwordHash) {
    const [row] = await db
      .insert(doctors)
      .values({
        name: input.name,
        email: input.email,
        passwordHash,
        yearsOfExperience: input.yearsOfExperience,
        specialization: input.specialization,
        qualifications: input.qualifications,
        gender: input.gender,
        registrationRegister: input.registration.register,
        registrationNumber: input.registration.number,
      })
      .returning({ id: doctors.id });
    return row.id;
  },

  async load(db, id, now, { doctorVerification } = { doctorVerification: true }) {
    const [row] = await db.select(PROFILE_COLUMNS).from(doctors).where(eq(doctors.id, id)).limit(1);
    if (!row) return undefined;
    const pending = await pendingEmailOf(db, { role: 'doctor', accountId: id, currentEmail: row.email, now });
    return { doctor: toDoctor(row, await assignedPatientsOf(db, id), pending, doctorVerification), profileUrl: null };
  },

  async update(db, id, input: Omit<Update, 'password' | 'currentPassword' | 'email'>, passwordHash, now) {
    const set: Partial<typeof doctors.$inferInsert> = {
      name: input.name,
      yearsOfExperience: input.yearsOfExperience,
      specialization: input.specialization,
      qualifications: input.qualifications,
      gender: input.gender,
      passwordHash,
      updatedAt: now,
    };
    await db.update(doctors).set(set).where(eq(doctors.id, id));
  },
};
