/** SPEC §9 business constants, one place for api and apps. */
export const PAGE_SIZE = 10;
export const TWO_FACTOR_VERIFY_DELAY_MS = 800;
export const REQUEST_LIST_REFRESH_DELAY_MS = 400;
/* SPEC §9's MIN_PULSE (78) and MIN_RESPIRATORY_RATE (16) are deliberately absent: the record's vitals
   have no minimums, only plausible ranges to confirm outside (record-descriptor.ts; README). */
export const MIN_YEARS_OF_EXPERIENCE = 1;
export const MIN_REMINDER_INTERVAL_DAYS = 0;
export const CONTACT_EMAIL = 'contact@careloop.example';

/* Plain values the web apps need, kept apart from the zod schemas so importing one of them
   never pulls zod into a page (package.json "sideEffects": false lets webpack drop the rest). */
export const ROLES = ['patient', 'doctor'] as const;
export const GENDERS = ['Male', 'Female', 'Other', 'Prefer not to say'] as const;
export const MARITAL_STATUSES = ['Unmarried', 'Married'] as const;
export const MODES_OF_ADMISSION = ['Emergency', 'Outpatient'] as const;
export const PDF_MIME = 'application/pdf';
export const FHIR_MIME = 'application/fhir+json';
export const REQUEST_ACTIONS = ['accept', 'reject'] as const;
export const REMINDER_STATUSES = ['scheduled', 'completed', 'cancelled'] as const;
/**
 * What became of one occurrence of a reminder: 'scheduled' (due, waiting for the runner),
 * 'sending' (being handed to the mail server), 'sent', 'failed' (with its reason; tried again
 * while `nextAttemptAt` is set), 'unknown' (the sending process stopped mid-send: it may or may
 * not have left, and is not sent again).
 */
export const REMINDER_DELIVERY_STATES = ['scheduled', 'sending', 'sent', 'failed', 'unknown'] as const;
/** A reminder in the list carries at most this many of its latest occurrences. */
export const REMINDER_DELIVERIES_SHOWN = 20;

// OWASP ASVS 2.1: length is the rule, not composition; long passphrases allowed, never truncated.
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Google sign-in could not finish; the web app's login page explains which. */
export const GOOGLE_SIGN_IN_ERRORS = {
  google_unavailable: 'Google sign-in is not available right now. Please sign in with your e-mail and password.',
  google_failed: 'Google sign-in did not complete. Please try again.',
  google_unverified: 'Your Google e-mail address is not verified. Please verify it with Google, or sign up with e-mail.',
} as const;
export type GoogleSignInError = keyof typeof GOOGLE_SIGN_IN_ERRORS;

/**
 * `table[key]` for a key that comes from outside (a query parameter, a server message): the
 * table's own entries only. A plain lookup answers Object.prototype's members for `__proto__`,
 * `constructor` or `toString` (an object or a function where a text is expected).
 */
export function ownEntry<T extends object>(table: T, key: unknown): T[keyof T] | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key as keyof T] : undefined;
}

/** The login page's text for `?error=` of a Google sign-in; undefined for anything else. */
export const googleSignInErrorText = (code: string | null): string | undefined => ownEntry(GOOGLE_SIGN_IN_ERRORS, code);

export const isRole = (value: unknown): value is (typeof ROLES)[number] => value === 'patient' || value === 'doctor';

/** The longest allergy note, wherever it is typed (a record's history, a prescription's allergy box). */
export const ALLERGY_NOTE_MAX = 1000;
