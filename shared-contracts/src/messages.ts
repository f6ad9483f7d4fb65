// Error texts of the api that the web apps also read (to place them beside a field), so both
// sides use the one string.

/** 409 on signup and profile edit: the e-mail is taken (shown beside the e-mail field). */
export const DUPLICATE_EMAIL = 'An account with this e-mail already exists';

/** 400 on profile edit: a new password or e-mail without the current password (beside that field). */
export const CURRENT_PASSWORD_REQUIRED = 'Enter your current password to change your password or e-mail';

/** 403 on profile edit and on turning two-factor off: the current password given is wrong. */
export const CURRENT_PASSWORD_WRONG = 'Current password is incorrect';

/** 403 on turning two-factor off: the authenticator code given is wrong (or already used). */
export const TWO_FACTOR_CODE_WRONG = 'The code is wrong or has expired';

/** 409 on GET /{role}/qrCode while two-factor is on: a new secret only after it is turned off. */
export const TWO_FACTOR_ALREADY_ON = 'Two-factor authentication is already on: turn it off first';

/**
 * 403 on every endpoint but enrolment for a role that must have two-factor on (api REQUIRE_MFA_FOR)
 * while the account has it off; the web apps send the user to the set-up page on it.
 */
export const MFA_REQUIRED = 'Two-factor authentication is required: set it up to continue';

/**
 * 403 to a doctor on anything of a patient whose connection with them ended: they knew the patient,
 * so they are told why rather than "not found" (a doctor who never had the patient gets 404).
 */
export const YOUR_ACCESS_ENDED = "You no longer have access to this patient's records";

/** 401 when the token names a session that ran out (idle or absolute limit): the web app says so on its sign-in page. */
export const SESSION_EXPIRED = 'Session expired';
