import type {
  DoctorSignup, LoginBody, LoginResponse, PatientSignup, Role, TokenResponse,
} from 'shared-contracts';
import { api } from './client';

export const login = (role: Role, body: LoginBody) =>
  api().post(`${role}/login`, { json: body }).json<LoginResponse>();

export function signup(role: 'patient', body: PatientSignup): Promise<TokenResponse>;
export function signup(role: 'doctor', body: DoctorSignup): Promise<TokenResponse>;
export function signup(role: Role, body: PatientSignup | DoctorSignup) {
  return api().post(`${role}/signup`, { json: body }).json<TokenResponse>();
}

/**
 * Ends the session on the server; the local session is cleared whatever it answers.
 * The token is passed in because the caller forgets it locally before ky's hooks run.
 */
export const logoutOnServer = (role: Role, token: string) =>
  api()
    .post(`${role}/logout`, { headers: { Authorization: `Bearer ${token}` } })
    .then(() => undefined, () => undefined);

/** POST /{role}/verify2FA: the code step of a login with two-factor on. */
export const verifyLoginCode = (role: Role, accountId: string, code: string) =>
  api()
    .post(`${role}/verify2FA`, { json: { [role === 'patient' ? 'patientId' : 'doctorId']: accountId, code } })
    .json<TokenResponse>();
