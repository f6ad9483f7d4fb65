import { eq } from 'drizzle-orm';
import {
  PatientMeResponse,
  PatientProfileUpdate,
  PatientSignup,
  PatientUpdateResponse,
  type Gender,
  type MaritalStatus,
  type Patient,
} from 'shared-contracts';
import type { z } from 'zod';
import { patients } from '../../db/schema';
import { assignedDoctorsOf } from '../../access';
import { pendingEmailOf } from '../email-verification/tokens';
import type { ProfileSpec } from './spec';

type Row = typeof patients.$inferSelect;
type Update = z.output<typeof PatientProfileUpdate>;

function toPatient(r: Row, assignedDoctors: Patient['assignedDoctors'], pendingEmail: string | null): Patient {
  return {
    _id: r.id,
    name: r.name,
    email: r.email,
    DOB: r.dob,
    gender: r.gender as Gender,
    maritalStatus: r.maritalStatus as MaritalStatus,
    occupation: r.occupation,
    address: { street: r.addressStreet, city: r.addressCity, state: r.addressState, pinCode: r.addressPinCode },
    profileComplete: r.profileComplete,
    twoFactorEnabled: r.twoFactorEnabled,
    emailVerified: r.emailVerifiedAt !== null,
    assignedDoctors,
    pendingEmail,
  };
}

export const patientProfile: ProfileSpec<
  'patient',
  typeof PatientSignup,
  typeof PatientProfileUpdate,
  typeof PatientMeResponse,
  typeof PatientUpdateResponse
> = {
  role: 'patient',
  signupBody: PatientSignup,
  updateBody: PatientProfileUpdate,
  meResponse: PatientMeResponse,
  updateResponse: PatientUpdateResponse,

  async create(db, input, passwordHash) {
    const a = input.address;
    const [row] = await db
      .insert(patients)
      .values({
        name: input.name,
        email: input.email,
        passwordHash,
        dob: input.DOB ?? null,
        gender: input.gender,
        maritalStatus: input.maritalStatus,
        occupation: input.occupation,
        addressStreet: a.street ?? '',
        addressCity: a.city ?? '',
        addressState: a.state ?? '',
        addressPinCode: a.pinCode ?? '',
      })
      .returning({ id: patients.id });
    return row.id;
  },

  async load(db, id, now) {
    const [row] = await db.select().from(patients).where(eq(patients.id, id)).limit(1);
    if (!row) return undefined;
    const pending = await pendingEmailOf(db, { role: 'patient', accountId: id, currentEmail: row.email, now });
    return { patient: toPatient(row, await assignedDoctorsOf(db, id), pending), profileUrl: null };
  },

  async update(db, id, input: Omit<Update, 'password' | 'currentPassword' | 'email'>, passwordHash, now) {
    const a = input.address ?? {};
    // Only the fields sent are set; the address is merged field by field.
    const set: Partial<typeof patients.$inferInsert> = {
      name: input.name,
      dob: input.DOB,
      gender: input.gender,
      maritalStatus: input.maritalStatus,
      occupation: input.occupation,
      addressStreet: a.street,
      addressCity: a.city,
      addressState: a.state,
      addressPinCode: a.pinCode,
      passwordHash,
      updatedAt: now,
    };
    await db.update(patients).set(set).where(eq(patients.id, id));
  },
};
