import type {
  DoctorCompleteProfile,
  PatientCompleteProfile,
  RemoveTwoFactorBody,
  Role,
  TokenResponse,
} from '@careloop/shared-contracts';
import { call } from './client';

/** GET /{role}/qrCode: a new secret to scan; on only once a code verifies it. */
export const fetchTwoFactorSetup = (role: Role) => call(`${role}TwoFactorSetup`);

export const verifyTwoFactorCode = (role: Role, code: string) => call(`${role}VerifyTwoFactorCode`, { body: { code } });

/** POST /{role}/remove2FA: a current code of the authenticator, or the account's password. */
export const removeTwoFactor = (role: Role, proof: RemoveTwoFactorBody) => call(`${role}RemoveTwoFactor`, { body: proof });

export const requestPasswordReset = (role: Role, email: string) => call(`${role}ForgotPassword`, { body: { email } });

export const resetPassword = (role: Role, id: string, token: string, password: string) =>
  call(`${role}ResetPassword`, { params: { id, token }, body: { password } });

export function completeProfile(role: 'patient', body: PatientCompleteProfile): Promise<Partial<TokenResponse>>;
export function completeProfile(role: 'doctor', body: DoctorCompleteProfile): Promise<Partial<TokenResponse>>;
export function completeProfile(role: Role, body: PatientCompleteProfile | DoctorCompleteProfile) {
  // SPEC §7 "Response: token or error": the form says "No token received" (SPEC §8) for an answer
  // without one, so this call accepts it rather than failing on the schema.
  const answer: Promise<Partial<TokenResponse>> =
    role === 'patient'
      ? call('patientCompleteProfile', { body: body as PatientCompleteProfile, partialAnswer: true })
      : call('doctorCompleteProfile', { body: body as DoctorCompleteProfile, partialAnswer: true });
  return answer;
}

/** POST /{role}/verify-email/{token}: the link from the verification mail and the account's password (once, 24 h). */
export const verifyEmail = (role: Role, token: string, password: string) =>
  call(`${role}VerifyEmail`, { params: { token }, body: { password } });

/** POST /{role}/verify-email/{token}/disown: "I did not create this account" (an unverified account is deleted). */
export const disownEmail = (role: Role, token: string) => call(`${role}DisownEmail`, { params: { token } });

/** DELETE /{role}/me/pending-email: the e-mail change waiting for confirmation is dropped. */
export const withdrawPendingEmail = (role: Role) => call(`${role}WithdrawPendingEmail`);

/** POST /{role}/verify-email/resend: a fresh link to the signed-in account's unverified address. */
export const resendVerification = (role: Role) => call(`${role}ResendVerification`);

/** GET /{role}/recovery-codes: how many unused recovery codes the account has. */
export const fetchRecoveryCodesStatus = (role: Role) => call(`${role}RecoveryCodesStatus`);

/** POST /{role}/recovery-codes: new codes replace the old ones (the current password is asked). */
export const regenerateRecoveryCodes = (role: Role, currentPassword: string) =>
  call(`${role}RegenerateRecoveryCodes`, { body: { currentPassword } });
