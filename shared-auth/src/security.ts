import type {
  DoctorCompleteProfile, MessageResponse, PatientCompleteProfile, Role, TokenResponse,
  TwoFactorSetupResponse, VerifyCodeResponse,
} from 'shared-contracts';
import { api } from './client';

/** GET /{role}/qrCode: a new secret to scan; on only once a code verifies it. */
export const fetchTwoFactorSetup = (role: Role) => api().get(`${role}/qrCode`).json<TwoFactorSetupResponse>();

export const verifyTwoFactorCode = (role: Role, code: string) =>
  api().post(`${role}/verifyqrCode`, { json: { code } }).json<VerifyCodeResponse>();

export const removeTwoFactor = (role: Role) => api().post(`${role}/remove2FA`).json<MessageResponse>();

export const requestPasswordReset = (role: Role, email: string) =>
  api().post(`${role}/forgot-password`, { json: { email } }).json<MessageResponse>();

export const resetPassword = (role: Role, id: string, token: string, password: string) =>
  api()
    .post(`${role}/reset-password/${encodeURIComponent(id)}/${encodeURIComponent(token)}`, { json: { password } })
    .json<MessageResponse>();

export function completeProfile(role: 'patient', body: PatientCompleteProfile): Promise<Partial<TokenResponse>>;
export function completeProfile(role: 'doctor', body: DoctorCompleteProfile): Promise<Partial<TokenResponse>>;
export function completeProfile(role: Role, body: PatientCompleteProfile | DoctorCompleteProfile) {
  return api().post(`${role}/complete-profile`, { json: body }).json<Partial<TokenResponse>>();
}
