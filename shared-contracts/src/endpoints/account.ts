import { z } from 'zod';
import { HandoffExchangeBody, LoginBody, LoginResponse, TokenResponse } from '../auth';
import { Role } from '../common';
import {
  AssignedDoctorParams,
  AssignedPatientParams,
  ConnectionRequestBody,
  ConnectionRequestList,
  ConnectionResponseBody,
  RequestIdParams,
} from '../connections';
import { endpoint, perRole } from '../endpoint';
import {
  DoctorMeResponse,
  DoctorProfileUpdate,
  DoctorSignup,
  DoctorUpdateResponse,
  PatientMeResponse,
  PatientProfileUpdate,
  PatientSignup,
  PatientUpdateResponse,
} from '../profiles';
import {
  DoctorCompleteProfile,
  ForgotPasswordBody,
  MessageResponse,
  PatientCompleteProfile,
  ResetPasswordBody,
  ResetPasswordParams,
  RecoveryCodesResponse,
  RecoveryCodesStatus,
  RegenerateRecoveryCodesBody,
  RemoveTwoFactorBody,
  TwoFactorSetupResponse,
  VerifyEmailBody,
  VerifyEmailParams,
  VerifyCodeBody,
  VerifyCodeResponse,
  VerifyLoginCodeBody,
} from '../security';

const other = (role: Role): Role => (role === 'patient' ? 'doctor' : 'patient');
const capitalized = (role: Role) => role[0].toUpperCase() + role.slice(1);
const own = (role: Role) => [role] as const;

/** Sign-up, login and logout (api/src/modules/account/sign-in). */
export const AUTH_ENDPOINTS = {
  patientSignup: endpoint({
    method: 'POST',
    path: '/patient/signup',
    summary: 'Create a patient account and sign in',
    tags: ['patient'],
    access: 'public',
    body: PatientSignup,
    status: 201,
    response: TokenResponse,
    errors: [400, 409, 429],
  }),
  doctorSignup: endpoint({
    method: 'POST',
    path: '/doctor/signup',
    summary: 'Create a doctor account and sign in',
    tags: ['doctor'],
    access: 'public',
    body: DoctorSignup,
    status: 201,
    response: TokenResponse,
    errors: [400, 409, 429],
  }),
  ...perRole('login', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/login`,
      summary: `Sign in as ${role}`,
      tags: [role],
      access: 'public',
      body: LoginBody,
      status: 200,
      response: LoginResponse,
      errors: [400, 401, 429],
    }),
  ),
  ...perRole('logout', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/logout`,
      summary: 'Revoke the current session',
      tags: [role],
      access: own(role),
      beforeMfa: true,
      status: 204,
      response: z.undefined(),
      errors: [401, 403],
    }),
  ),
};

/** The signed-in account's own profile (api/src/modules/profiles). */
export const PROFILE_ENDPOINTS = {
  patientMe: endpoint({
    method: 'GET',
    path: '/patient/me',
    summary: "The signed-in patient's profile",
    tags: ['patient'],
    access: ['patient'],
    beforeMfa: true,
    status: 200,
    response: PatientMeResponse,
    errors: [401, 403],
  }),
  doctorMe: endpoint({
    method: 'GET',
    path: '/doctor/me',
    summary: "The signed-in doctor's profile",
    tags: ['doctor'],
    access: ['doctor'],
    beforeMfa: true,
    status: 200,
    response: DoctorMeResponse,
    errors: [401, 403],
  }),
  patientUpdateMe: endpoint({
    method: 'PATCH',
    path: '/patient/me',
    summary:
      "Update the signed-in patient's profile (a new password or e-mail needs currentPassword; a new password revokes every session and returns a new token; a new e-mail is in force once the link mailed to it is used)",
    tags: ['patient'],
    access: ['patient'],
    body: PatientProfileUpdate,
    status: 200,
    response: PatientUpdateResponse,
    errors: [400, 401, 403, 409],
  }),
  doctorUpdateMe: endpoint({
    method: 'PATCH',
    path: '/doctor/me',
    summary:
      "Update the signed-in doctor's profile (a new password or e-mail needs currentPassword; a new password revokes every session and returns a new token; a new e-mail is in force once the link mailed to it is used)",
    tags: ['doctor'],
    access: ['doctor'],
    body: DoctorProfileUpdate,
    status: 200,
    response: DoctorUpdateResponse,
    errors: [400, 401, 403, 409, 429],
  }),
  patientCompleteProfile: endpoint({
    method: 'POST',
    path: '/patient/complete-profile',
    summary: 'Fill in the rest of an incomplete patient profile (all fields required); answers a fresh token',
    tags: ['patient'],
    access: ['patient'],
    beforeMfa: true,
    body: PatientCompleteProfile,
    status: 200,
    response: TokenResponse,
    errors: [400, 401, 403, 409],
  }),
  doctorCompleteProfile: endpoint({
    method: 'POST',
    path: '/doctor/complete-profile',
    summary: 'Fill in the rest of an incomplete doctor profile (all fields required); answers a fresh token',
    tags: ['doctor'],
    access: ['doctor'],
    beforeMfa: true,
    body: DoctorCompleteProfile,
    status: 200,
    response: TokenResponse,
    errors: [400, 401, 403, 409],
  }),
  ...perRole('withdrawPendingEmail', (role) =>
    endpoint({
      method: 'DELETE',
      path: `/${role}/me/pending-email`,
      summary: 'Withdraw the e-mail change waiting for confirmation: the link mailed to the new address stops working',
      description: '404: no e-mail change is waiting.',
      tags: [role],
      access: own(role),
      status: 200,
      response: MessageResponse,
      errors: [401, 403, 404],
    }),
  ),
};

/** Two-factor set-up and the login's code step (api/src/modules/account/two-factor). */
export const TWO_FACTOR_ENDPOINTS = {
  ...perRole('twoFactorSetup', (role) =>
    endpoint({
      method: 'GET',
      path: `/${role}/qrCode`,
      summary:
        'A new two-factor secret to scan (on only after POST verifyqrCode accepts a code of it); 409 while two-factor is on',
      tags: [role, 'two-factor'],
      access: own(role),
      beforeMfa: true,
      status: 200,
      response: TwoFactorSetupResponse,
      errors: [401, 403, 409],
    }),
  ),
  ...perRole('verifyTwoFactorCode', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/verifyqrCode`,
      summary: 'Check a code: confirms a pending secret (two-factor goes on), or checks the enabled one',
      tags: [role, 'two-factor'],
      access: own(role),
      beforeMfa: true,
      body: VerifyCodeBody,
      status: 200,
      response: VerifyCodeResponse,
      errors: [400, 401, 403, 429],
    }),
  ),
  ...perRole('removeTwoFactor', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/remove2FA`,
      summary: 'Turn two-factor off and delete its secrets; needs a current code or the current password',
      tags: [role, 'two-factor'],
      access: own(role),
      beforeMfa: true,
      body: RemoveTwoFactorBody,
      status: 200,
      response: MessageResponse,
      errors: [400, 401, 403, 429],
    }),
  ),
  ...perRole('recoveryCodesStatus', (role) =>
    endpoint({
      method: 'GET',
      path: `/${role}/recovery-codes`,
      summary: 'How many unused two-factor recovery codes the account has',
      tags: [role, 'two-factor'],
      access: own(role),
      beforeMfa: true,
      status: 200,
      response: RecoveryCodesStatus,
      errors: [401, 403],
    }),
  ),
  ...perRole('regenerateRecoveryCodes', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/recovery-codes`,
      summary: 'New recovery codes replace the old ones (two-factor must be on; needs the current password); shown once',
      tags: [role, 'two-factor'],
      access: own(role),
      beforeMfa: true,
      body: RegenerateRecoveryCodesBody,
      status: 200,
      response: RecoveryCodesResponse,
      errors: [400, 401, 403, 409, 429],
    }),
  ),
  ...perRole('verifyLoginCode', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/verify2FA`,
      summary: `Second login step: ${role === 'patient' ? 'patientId' : 'doctorId'} from the login answer and a code (or a recovery code, once: it signs out every other session); answers the session token`,
      tags: [role, 'two-factor'],
      access: 'public',
      body: VerifyLoginCodeBody,
      status: 200,
      response: TokenResponse,
      errors: [400, 401, 429],
    }),
  ),
};

/** Forgot / reset password (api/src/modules/account/password-reset). */
export const PASSWORD_RESET_ENDPOINTS = {
  ...perRole('forgotPassword', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/forgot-password`,
      summary: 'E-mail a password-reset link (the answer is the same whether or not the account exists)',
      tags: [role, 'password'],
      access: 'public',
      body: ForgotPasswordBody,
      status: 200,
      response: MessageResponse,
      errors: [400, 429],
    }),
  ),
  ...perRole('resetPassword', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/reset-password/{id}/{token}`,
      summary: 'Set a new password with the link from the e-mail (once; every session is signed out)',
      description: `id is the ${role}'s account id, token the secret of the e-mailed link.`,
      tags: [role, 'password'],
      access: 'public',
      params: ResetPasswordParams,
      body: ResetPasswordBody,
      status: 200,
      response: MessageResponse,
      errors: [400, 429],
    }),
  ),
};

/** E-mail verification (api/src/modules/account/email-verification). */
export const EMAIL_VERIFICATION_ENDPOINTS = {
  ...perRole('resendVerification', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/verify-email/resend`,
      summary: "Mail a fresh verification link to the signed-in account's unverified address (1 a minute, 5 an hour)",
      tags: [role, 'email-verification'],
      access: own(role),
      status: 200,
      response: MessageResponse,
      errors: [401, 403, 409, 429],
    }),
  ),
  ...perRole('verifyEmail', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/verify-email/{token}`,
      summary:
        "Prove the account's e-mail with the link from the verification mail and the account's password (once, within 24 hours)",
      description:
        "token is the secret of the e-mailed link. 400: unknown, used, expired, or the account's e-mail or password changed since it was sent; 403: wrong password (counts as a failed login); 409: another account has the address by now; 410: already used, and the address is the account's, verified (sign in).",
      tags: [role, 'email-verification'],
      access: 'public',
      params: VerifyEmailParams,
      body: VerifyEmailBody,
      status: 200,
      response: MessageResponse,
      errors: [400, 403, 409, 410, 429],
    }),
  ),
  ...perRole('disownEmail', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/verify-email/{token}/disown`,
      summary: '"I did not create this account": deletes the unverified account the link was mailed for',
      description:
        'Only with a live link. A link for a new address of an account drops that change instead. 400: unknown, used or expired link; 409: the account is verified, or clinical records name it (it is never deleted this way).',
      tags: [role, 'email-verification'],
      access: 'public',
      params: VerifyEmailParams,
      status: 200,
      response: MessageResponse,
      errors: [400, 409, 429],
    }),
  ),
};

/** Google sign-in for patients: browser redirects (api/src/modules/account/google). */
export const GOOGLE_ENDPOINTS = {
  patientGoogleSignIn: endpoint({
    method: 'GET',
    path: '/patient/auth/google',
    summary: 'Start Google sign-in (browser redirect to Google)',
    tags: ['patient', 'google'],
    access: 'public',
    status: 302,
    response: z.undefined(),
    errors: [],
  }),
  patientGoogleCallback: endpoint({
    method: 'GET',
    path: '/patient/auth/google/callback',
    summary: 'Google redirects here; answers a redirect to the web login with a one-time hand-off code in ?token=',
    tags: ['patient', 'google'],
    access: 'public',
    status: 302,
    response: z.undefined(),
    errors: [],
  }),
  ...perRole('exchangeHandoff', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/auth/exchange`,
      summary: 'Exchange the one-time hand-off code of a Google sign-in for a session',
      description:
        'The code is valid for 60 seconds and once; an unknown, used, expired or other-role code answers 400 with one generic error.',
      tags: [role, 'google'],
      access: 'public',
      body: HandoffExchangeBody,
      status: 200,
      response: TokenResponse,
      errors: [400, 429],
    }),
  ),
};

/** The care network: connection requests between doctors and patients (api/src/modules/connections). */
export const CONNECTION_ENDPOINTS = {
  ...perRole('requestConnection', (role) =>
    endpoint({
      method: 'POST',
      path: `/${role}/request${capitalized(other(role))}`,
      summary: `Ask a ${other(role)}, by e-mail, to connect`,
      tags: [role, 'connections'],
      access: own(role),
      body: ConnectionRequestBody,
      status: 201,
      response: MessageResponse,
      errors: [400, 401, 403, 404, 409, 429],
    }),
  ),
  ...perRole('receivedRequests', (role) =>
    endpoint({
      method: 'GET',
      path: `/${role}/receivedRequests`,
      summary: `Pending requests ${other(role)}s sent to the signed-in ${role}, newest first`,
      tags: [role, 'connections'],
      access: own(role),
      status: 200,
      response: ConnectionRequestList,
      errors: [401, 403],
    }),
  ),
  ...perRole('sentRequests', (role) =>
    endpoint({
      method: 'GET',
      path: `/${role}/sentRequests`,
      summary: `Pending requests the signed-in ${role} sent, newest first`,
      tags: [role, 'connections'],
      access: own(role),
      status: 200,
      response: ConnectionRequestList,
      errors: [401, 403],
    }),
  ),
  ...perRole('respondToRequest', (role) =>
    endpoint({
      method: 'PATCH',
      path: `/${role}/responseRequest/{requestId}`,
      summary: 'Accept (addressee only) or cancel (either side) a pending request',
      tags: [role, 'connections'],
      access: own(role),
      params: RequestIdParams,
      body: ConnectionResponseBody,
      status: 200,
      response: MessageResponse,
      errors: [400, 401, 403, 404, 409],
    }),
  ),
  // Revoke: either side ends an assignment; an id that is not one of the caller's is answered as unknown (404).
  patientRevokeDoctor: endpoint({
    method: 'DELETE',
    path: '/patient/doctors/{doctorId}',
    summary: "End an assigned doctor's access to the patient's records",
    tags: ['patient', 'connections'],
    access: ['patient'],
    params: AssignedDoctorParams,
    status: 200,
    response: MessageResponse,
    errors: [400, 401, 403, 404],
  }),
  doctorRevokePatient: endpoint({
    method: 'DELETE',
    path: '/doctor/patients/{patientId}',
    summary: 'Release an assigned patient: the doctor no longer reaches their records',
    tags: ['doctor', 'connections'],
    access: ['doctor'],
    params: AssignedPatientParams,
    status: 200,
    response: MessageResponse,
    errors: [400, 401, 403, 404],
  }),
};
