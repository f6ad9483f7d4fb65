// A doctor's registration as text and its format rules, with no zod: what a page shows (a doctor's
// card, the dashboard) needs no schema. The schemas are in registration.ts.

/**
 * A doctor's professional registration: the register and the number in it. Asked at signup and
 * checked for its format here, on both sides (the signup form validates with this schema); an
 * operator checks the number against the register itself before the doctor may send connection
 * requests (`npm run operator -- verify-doctor <email>`).
 */
export const DOCTOR_REGISTERS = ['GMC', 'NPI', 'IMC', 'AHPRA', 'Other'] as const;
export type DoctorRegister = (typeof DOCTOR_REGISTERS)[number];

/** The select's option texts. */
export const DOCTOR_REGISTER_LABELS: Record<DoctorRegister, string> = {
  GMC: 'GMC (UK General Medical Council)',
  NPI: 'NPI (US National Provider Identifier)',
  IMC: 'IMC (Medical Council of Ireland)',
  AHPRA: 'AHPRA (Australia)',
  Other: 'Other register',
};

export const REGISTER_REQUIRED = 'Choose the register you are registered with';
export const REGISTRATION_NUMBER_MESSAGES: Record<DoctorRegister, string> = {
  GMC: 'A GMC number is 7 digits',
  NPI: 'An NPI is 10 digits',
  IMC: 'An IMC number is 1 to 6 digits',
  AHPRA: 'An AHPRA number is MED followed by 10 digits',
  Other: 'A registration number is 3 to 40 letters, digits, spaces or hyphens',
};
export const NPI_CHECK_DIGIT_MESSAGE = "This NPI's check digit does not match: check the number";

const FORMATS: Record<DoctorRegister, RegExp> = {
  GMC: /^\d{7}$/,
  NPI: /^\d{10}$/,
  IMC: /^\d{1,6}$/,
  AHPRA: /^MED\d{10}$/,
  Other: /^[A-Za-z0-9 -]{3,40}$/,
};

/**
 * The NPI check digit (CMS, "Requirements for National Provider Identifier check digit"): the Luhn
 * formula over the prefix 80840 and the NPI's 10 digits, the last of which is the check digit.
 */
export function npiCheckDigitValid(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  const digits = `80840${npi}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The message for a number that does not fit its register; undefined when it fits. */
export function registrationNumberProblem(register: DoctorRegister, number: string): string | undefined {
  if (!FORMATS[register].test(number)) return REGISTRATION_NUMBER_MESSAGES[register];
  if (register === 'NPI' && !npiCheckDigitValid(number)) return NPI_CHECK_DIGIT_MESSAGE;
  return undefined;
}

/** A registration as a page shows it (RegistrationStatus in registration.ts). */
type ShownRegistration = { register: DoctorRegister | null; number: string | null; verified: boolean };

/** "GMC 1234567"; null when none was given. */
export function registrationName(r: Pick<ShownRegistration, 'register' | 'number'>): string | null {
  return r.register && r.number ? `${r.register} ${r.number}` : null;
}

/**
 * "Registration GMC 1234567, verified": the line a patient reads on a doctor's card. Without a
 * number (none given, or withheld with the name of a doctor who has not accepted): "Registration verified".
 */
export function registrationLine(r: ShownRegistration): string {
  const name = registrationName(r);
  const state = r.verified ? 'verified' : 'not verified';
  return name ? `Registration ${name}, ${state}` : `Registration ${state}`;
}

/** 403 to an unverified doctor's connection request (the api's access layer). */
export const REGISTRATION_UNVERIFIED =
  'Your professional registration has not been verified yet; connection requests open once an operator verifies it.';
