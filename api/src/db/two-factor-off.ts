/**
 * The account columns of two-factor turned off: no secret, pending secret, login window, replay
 * step or lockout left behind. Written by turning it off and by an account takeover.
 */
export const TWO_FACTOR_OFF = {
  twoFactorEnabled: false,
  twoFactorSecret: null,
  twoFactorPendingSecret: null,
  twoFactorLastStep: null,
  twoFactorLoginUntil: null,
  twoFactorFailures: 0,
  twoFactorFailuresSince: null,
  twoFactorLockedUntil: null,
} as const;
