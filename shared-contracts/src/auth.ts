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

/** POST /{role}/login: a token, or — with two-factor on — the account id for the code step. */
export const LoginResponse = z.object({
  twoFactorRequired: z.boolean(),
  token: z.string().optional(),
  role: Role.optional(),
  patientId: z.string().optional(),
  doctorId: z.string().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;
