import { z } from 'zod';
import { Email, Role } from './common';

export const LoginBody = z.strictObject({
  email: Email,
  // Not the signup policy: an old password must still be accepted for checking.
  password: z.string().min(1, { error: 'Required' }).max(1024),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const TokenResponse = z.object({ token: z.string(), role: Role });
export type TokenResponse = z.infer<typeof TokenResponse>;

/**
 * POST /{role}/auth/exchange: the one-time code a Google sign-in hands the web app in ?token=
 * (SPEC §7's parameter name, kept) — never a session token itself.
 */
export const HandoffExchangeBody = z.strictObject({
  code: z.string().min(1, { error: 'Required' }).max(200),
});
export type HandoffExchangeBody = z.infer<typeof HandoffExchangeBody>;

/** The one answer to every refused hand-off code (unknown, used, expired, other role). */
export const HANDOFF_INVALID = 'This sign-in link is invalid or has expired';

/** POST /{role}/login: a token, or — with two-factor on — the account id for the code step. */
export const LoginResponse = z.object({
  twoFactorRequired: z.boolean(),
  token: z.string().optional(),
  role: Role.optional(),
  patientId: z.string().optional(),
  doctorId: z.string().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;
