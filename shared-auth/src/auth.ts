import type { DoctorSignup, LoginBody, PatientSignup, Role, TokenResponse } from '@careloop/shared-contracts';
import { call } from './client';

export const login = (role: Role, body: LoginBody) => call(`${role}Login`, { body });

export function signup(role: 'patient', body: PatientSignup): Promise<TokenResponse>;
export function signup(role: 'doctor', body: DoctorSignup): Promise<TokenResponse>;
export function signup(role: Role, body: PatientSignup | DoctorSignup) {
  return role === 'patient'
    ? call('patientSignup', { body: body as PatientSignup })
    : call('doctorSignup', { body: body as DoctorSignup });
}

/**
 * Ends the session on the server; the local session is cleared whatever it answers.
 * The token is passed in because the caller forgets it locally before ky's hooks run.
 */
export const logoutOnServer = (role: Role, token: string) =>
  call(`${role}Logout`, { headers: { Authorization: `Bearer ${token}` } }).then(
    () => undefined,
    () => undefined,
  );

/** POST /{role}/verify2FA: the code step of a login with two-factor on. */
export const verifyLoginCode = (role: Role, accountId: string, code: string) =>
  call(`${role}VerifyLoginCode`, {
    body: { [role === 'patient' ? 'patientId' : 'doctorId']: accountId, code },
  });
