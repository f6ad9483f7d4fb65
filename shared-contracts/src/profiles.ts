import { z } from 'zod';
import { CalendarDate, Email, EntityId, Gender, MaritalStatus, PersonName, RequiredText, Text } from './common';
import { AssignedDoctor } from './connections';
import { PASSWORD_MAX } from './constants';
import { CURRENT_PASSWORD_REQUIRED } from './messages';
import { Password } from './password';
import { DoctorRegistration, RegistrationStatus } from './registration';

export const Address = z.strictObject({
  street: Text(),
  city: Text(),
  state: Text(),
  pinCode: Text(20),
});
export type Address = z.infer<typeof Address>;

const NameList = z.array(RequiredText(100)).max(30);

/**
 * One of a doctor's patients. Date of birth and e-mail tell apart two patients of the same name;
 * they reach only a doctor the patient is assigned to (the access layer builds this list).
 */
export const AssignedPatient = z.object({
  patient: EntityId,
  name: z.string(),
  /** YYYY-MM-DD, null when the patient has not given it */
  DOB: z.string().nullable(),
  email: z.string(),
});
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
  /** true once the account's e-mail was proven by the link mailed to it (POST /patient/verify-email/{token}) */
  emailVerified: z.boolean(),
  /** the doctors this patient has accepted, or who accepted this patient */
  assignedDoctors: z.array(AssignedDoctor),
  /** a new e-mail asked for in PATCH /patient/me, in force once its link is used; null when none is waiting */
  pendingEmail: z.string().nullable(),
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
  /** a new e-mail asked for in PATCH /doctor/me, in force once its link is used; null when none is waiting */
  pendingEmail: z.string().nullable(),
  /** true once the account's e-mail was proven by the link mailed to it (POST /doctor/verify-email/{token}) */
  emailVerified: z.boolean(),
  /** the professional registration given at signup; connection requests open once it is verified */
  registration: RegistrationStatus,
  /** whether the api takes this doctor's connection requests: once the registration is verified (or the rule is off) */
  mayRequestConnections: z.boolean(),
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
  registration: DoctorRegistration,
});
export type DoctorSignup = z.input<typeof DoctorSignup>;

/**
 * The account's present password, asked again before what a stolen session must not do alone
 * (a new password or e-mail, turning two-factor off). Only checked against the stored hash, so
 * no strength rules: any password that could have been set is accepted here.
 */
export const CurrentPassword = z.string().min(1, { error: CURRENT_PASSWORD_REQUIRED }).max(PASSWORD_MAX);

/**
 * A new password needs the current one. So does a new e-mail, but only the api knows whether the
 * e-mail sent differs from the account's (the edit form sends it unchanged too): it checks that.
 */
export const needsCurrentPassword = (update: { password?: string; currentPassword?: string }, ctx: z.RefinementCtx) => {
  if (update.password !== undefined && update.currentPassword === undefined) {
    ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: CURRENT_PASSWORD_REQUIRED });
  }
};

/** The fields of PATCH /patient/me, without the current-password rule (for forms that extend them). */
export const PatientProfileFields = z.strictObject({
  name: PersonName.optional(),
  email: Email.optional(),
  password: Password.optional(),
  currentPassword: CurrentPassword.optional(),
  DOB: BirthDate.optional(),
  gender: Gender.optional(),
  maritalStatus: MaritalStatus.optional(),
  occupation: Text().optional(),
  address: Address.partial().optional(),
});
/**
 * PATCH /patient/me: any subset; a new password (which revokes every other session) or e-mail
 * (in force once verified) needs currentPassword.
 */
export const PatientProfileUpdate = PatientProfileFields.superRefine(needsCurrentPassword);
export type PatientProfileUpdate = z.input<typeof PatientProfileUpdate>;

export const DoctorProfileFields = z.strictObject({
  name: PersonName.optional(),
  email: Email.optional(),
  password: Password.optional(),
  currentPassword: CurrentPassword.optional(),
  yearsOfExperience: YearsOfExperience.optional(),
  specialization: NameList.optional(),
  qualifications: NameList.optional(),
  gender: Gender.optional(),
});
export const DoctorProfileUpdate = DoctorProfileFields.superRefine(needsCurrentPassword);
export type DoctorProfileUpdate = z.input<typeof DoctorProfileUpdate>;

/** PATCH /{role}/me answers the fresh profile, and a token when the old one was revoked. */
export const PatientUpdateResponse = PatientMeResponse.extend({ token: z.string().optional() });
export const DoctorUpdateResponse = DoctorMeResponse.extend({ token: z.string().optional() });
