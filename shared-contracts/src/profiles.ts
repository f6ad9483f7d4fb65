import { z } from 'zod';
import { CalendarDate, Email, EntityId, Gender, MaritalStatus, PersonName, RequiredText, Text } from './common';
import { AssignedDoctor } from './connections';
import { Password } from './password';

export const Address = z.strictObject({
  street: Text(),
  city: Text(),
  state: Text(),
  pinCode: Text(20),
});
export type Address = z.infer<typeof Address>;

const NameList = z.array(RequiredText(100)).max(30);

export const AssignedPatient = z.object({ patient: EntityId, name: z.string() });
export type AssignedPatient = z.infer<typeof AssignedPatient>;

export const Patient = z.object({
  _id: EntityId,
  name: z.string(),
  email: z.string(),
  DOB: z.string().nullable(),
  gender: Gender,
  maritalStatus: MaritalStatus,
  occupation: z.string(),
  address: z.object({ street: z.string(), city: z.string(), state: z.string(), pinCode: z.string() }),
  /** false for an account made through Google sign-in until /patient/complete-profile is done */
  profileComplete: z.boolean(),
  twoFactorEnabled: z.boolean(),
  /** the doctors this patient has accepted, or who accepted this patient */
  assignedDoctors: z.array(AssignedDoctor),
});
export type Patient = z.infer<typeof Patient>;

export const Doctor = z.object({
  _id: EntityId,
  name: z.string(),
  email: z.string(),
  yearsOfExperience: z.number().int(),
  specialization: z.array(z.string()),
  qualifications: z.array(z.string()),
  gender: Gender,
  assignedPatients: z.array(AssignedPatient),
  twoFactorEnabled: z.boolean(),
});
export type Doctor = z.infer<typeof Doctor>;

/** profileUrl: the profile picture's URL; null until pictures exist. */
export const PatientMeResponse = z.object({ patient: Patient, profileUrl: z.string().nullable() });
export type PatientMeResponse = z.infer<typeof PatientMeResponse>;
export const DoctorMeResponse = z.object({ doctor: Doctor, profileUrl: z.string().nullable() });
export type DoctorMeResponse = z.infer<typeof DoctorMeResponse>;

export const YearsOfExperience = z.coerce
  .number({ error: 'Years of experience must be a number' })
  .int()
  .min(1, { error: 'Years of experience must be at least 1' })
  .max(80);

/** A date of birth, wherever one is entered (signup, edit, complete-profile): the same rules. */
export const BirthDate = CalendarDate.refine((d) => d <= new Date().toISOString().slice(0, 10), {
  error: 'Date of birth cannot be in the future',
}).refine((d) => d >= '1900-01-01', { error: 'Date of birth cannot be before 1900' });

export const PatientSignup = z.strictObject({
  name: PersonName,
  email: Email,
  password: Password,
  DOB: BirthDate.optional(),
  gender: Gender.default('Prefer not to say'),
  maritalStatus: MaritalStatus.default('Unmarried'),
  occupation: Text().default(''),
  address: Address.partial().default({}),
});
export type PatientSignup = z.input<typeof PatientSignup>;

export const DoctorSignup = z.strictObject({
  name: PersonName,
  email: Email,
  password: Password,
  yearsOfExperience: YearsOfExperience.default(1),
  specialization: NameList.default([]),
  qualifications: NameList.default([]),
  gender: Gender.default('Prefer not to say'),
});
export type DoctorSignup = z.input<typeof DoctorSignup>;

/** PATCH /patient/me: any subset; a new password revokes every other session. */
export const PatientProfileUpdate = z.strictObject({
  name: PersonName.optional(),
  email: Email.optional(),
  password: Password.optional(),
  DOB: BirthDate.optional(),
  gender: Gender.optional(),
  maritalStatus: MaritalStatus.optional(),
  occupation: Text().optional(),
  address: Address.partial().optional(),
});
export type PatientProfileUpdate = z.input<typeof PatientProfileUpdate>;

export const DoctorProfileUpdate = z.strictObject({
  name: PersonName.optional(),
  email: Email.optional(),
  password: Password.optional(),
  yearsOfExperience: YearsOfExperience.optional(),
  specialization: NameList.optional(),
  qualifications: NameList.optional(),
  gender: Gender.optional(),
});
export type DoctorProfileUpdate = z.input<typeof DoctorProfileUpdate>;

/** PATCH /{role}/me answers the fresh profile, and a token when the old one was revoked. */
export const PatientUpdateResponse = PatientMeResponse.extend({ token: z.string().optional() });
export const DoctorUpdateResponse = DoctorMeResponse.extend({ token: z.string().optional() });
