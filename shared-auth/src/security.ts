import {
  ENDPOINTS,
  type DoctorCompleteProfile,
  type PatientCompleteProfile,
  type RemoveTwoFactorBody,
  type Role,
  TokenResponse,
} from '@careloop/shared-contracts';
import { call } from './client';

/** GET /{role}/qrCode: a new secret to scan; on only once a code verifies it. */
export const fetchTwoFactorSetup = (role: Role) => call(ENDPOINTS[`${role}TwoFactorSetup`]);

export const verifyTwoFactorCode = (role: Role, code: string) =>
  call(ENDPOINTS[`${role}VerifyTwoFactorCode`], { body: { code } });

/** POST /{role}/remove2FA: a current code of the authenticator, or the account's password. */
export const removeTwoFactor = (role: Role, proof: RemoveTwoFactorBody) =>
  call(ENDPOINTS[`${role}RemoveTwoFactor`], { body: proof });

export const requestPasswordReset = (role: Role, email: string) => call(ENDPOINTS[`${role}ForgotPassword`], { body: { email } });

export const resetPassword = (role: Role, id: string, token: string, password: string) =>
  call(ENDPOINTS[`${role}ResetPassword`], { params: { id, token }, body: { password } });

export function completeProfile(role: 'patient', body: PatientCompleteProfile): Promise<Partial<TokenResponse>>;
export function completeProfile(role: 'doctor', body: DoctorCompleteProfile): Promise<Partial<TokenResponse>>;
export function completeProfile(role: Role, body: PatientCompleteProfile | DoctorCompleteProfile) {
  // SPEC §7 "Response: token or error": the form says "No token received" (SPEC §8) for an answer
  // without one, so this call accepts it rather than failing on the schema.
  const lenient = { response: TokenResponse.partial() } as const;
  return role === 'patient'
    ? call({ ...ENDPOINTS.patientCompleteProfile, ...lenient }, { body: body as PatientCompleteProfile })
    : call({ ...ENDPOINTS.doctorCompleteProfile, ...lenient }, { body: body as DoctorCompleteProfile });
}

/** POST /{role}/verify-email/{token}: the link from the verification mail and the account's password (once, 24 h). */
export const verifyEmail = (role: Role, token: string, password: string) =>
  call(ENDPOINTS[`${role}VerifyEmail`], { params: { token }, body: { password } });

/** POST /{role}/verify-email/{token}/disown: "I did not create this account" (an unverified account is deleted). */
export const disownEmail = (role: Role, token: string) => call(ENDPOINTS[`${role}DisownEmail`], { params: { token } });

/** DELETE /{role}/me/pending-email: the e-mail change waiting for confirmation is dropped. */
export const withdrawPendingEmail = (role: Role) => call(ENDPOINTS[`${role}WithdrawPendingEmail`]);

/** POST /{role}/verify-email/resend: a fresh link to the signed-in account's unverified address. */
export const resendVerification = (role: Role) => call(ENDPOINTS[`${role}ResendVerification`]);

/** GET /{role}/recovery-codes: how many unused recovery codes the account has. */
export const fetchRecoveryCodesStatus = (role: Role) => call(ENDPOINTS[`${role}RecoveryCodesStatus`]);

/** POST /{role}/recovery-codes: new codes replace the old ones (the current password is asked). */
export const regenerateRecoveryCodes = (role: Role, currentPassword: string) =>
  call(ENDPOINTS[`${role}RegenerateRecoveryCodes`], { body: { currentPassword } });
