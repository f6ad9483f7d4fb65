import { z } from 'zod';
import { Email, EntityId, Gender, MaritalStatus, RequiredText } from './common';
import { Password } from './password';
import { BirthDate, CurrentPassword, YearsOfExperience } from './profiles';

/** A 6-digit code from an authenticator app (RFC 6238). */
export const TotpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { error: 'The code is 6 digits' });

/** GET /{role}/qrCode: a new secret to scan; two-factor is on only after a code verifies it. */
export const TwoFactorSetupResponse = z.object({
  /** PNG data URL of the otpauth URI */
  qrCode: z.string(),
  /** base32 secret, for typing into the app by hand */
  secret: z.string(),
  otpauthUrl: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof TwoFactorSetupResponse>;

/** How many recovery codes are made at once (each is single use). */
export const RECOVERY_CODE_COUNT = 10;

/**
 * A single-use recovery code: 10 base32 characters (50 bits) shown as `xxxxx-xxxxx`; typed in any
 * case, with or without the dash or spaces.
 */
export const RecoveryCode = z
  .string()
  .trim()
  .transform((v) => v.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z2-7]{10}$/, { error: 'A recovery code is 10 letters and digits (xxxxx-xxxxx)' }));

export const VerifyCodeBody = z.strictObject({ code: TotpCode });
export const VerifyCodeResponse = z.object({
  verify: z.boolean(),
  /** Only in the answer that turns two-factor on: the new recovery codes, shown this once. */
  recoveryCodes: z.array(z.string()).optional(),
});
export type VerifyCodeResponse = z.infer<typeof VerifyCodeResponse>;

/**
 * POST /{role}/remove2FA: turning two-factor off takes a current code of the authenticator, or
 * the account's password (for a lost phone) — a session alone is not enough.
 */
export const RemoveTwoFactorBody = z.union([
  z.strictObject({ code: TotpCode }),
  z.strictObject({ currentPassword: CurrentPassword }),
]);
export type RemoveTwoFactorBody = z.infer<typeof RemoveTwoFactorBody>;

/** POST /{role}/verify2FA: the second step of a login (the first was the password). */
export const VerifyLoginCodeBody = z.strictObject({
  patientId: EntityId.optional(),
  doctorId: EntityId.optional(),
  /** A code of the authenticator, or one of the account's unused recovery codes. */
  code: z.union([TotpCode, RecoveryCode]),
});

/** GET /{role}/recovery-codes: how many unused codes the account has (none while two-factor is off). */
export const RecoveryCodesStatus = z.object({ remaining: z.number().int().min(0) });
export type RecoveryCodesStatus = z.infer<typeof RecoveryCodesStatus>;

/** POST /{role}/recovery-codes: new codes replace the old ones, only with the current password. */
export const RegenerateRecoveryCodesBody = z.strictObject({ currentPassword: CurrentPassword });
export const RecoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const ForgotPasswordBody = z.strictObject({ email: Email });
export const ResetPasswordParams = z.strictObject({
  id: EntityId,
  token: z.string().regex(/^[A-Za-z0-9_-]{20,128}$/, { error: 'Invalid reset link' }),
});
export const ResetPasswordBody = z.strictObject({ password: Password });

/** POST /{role}/verify-email/{token}: the secret of the e-mailed verification link. */
export const VerifyEmailParams = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,128}$/, { error: 'Invalid verification link' }),
});

/** POST /{role}/verify-email/{token}: the account's password, so a link alone proves nothing to a stranger. */
export const VerifyEmailBody = z.strictObject({ password: CurrentPassword });

/** Every field required (SPEC §5), for accounts created through Google sign-in. */
export const PatientCompleteProfile = z.strictObject({
  DOB: BirthDate,
  gender: Gender,
  maritalStatus: MaritalStatus,
  occupation: RequiredText(),
  address: z.strictObject({
    street: RequiredText(),
    city: RequiredText(),
    state: RequiredText(),
    pinCode: RequiredText(20),
  }),
});
export type PatientCompleteProfile = z.infer<typeof PatientCompleteProfile>;

export const DoctorCompleteProfile = z.strictObject({
  gender: Gender,
  specialization: z.array(RequiredText(100)).min(1).max(30),
  yearsOfExperience: YearsOfExperience,
  qualifications: z.array(RequiredText(100)).min(1).max(30),
});
export type DoctorCompleteProfile = z.infer<typeof DoctorCompleteProfile>;
