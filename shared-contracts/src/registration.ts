import { z } from 'zod';

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

/** What a person types: surrounding spaces dropped; AHPRA's MED prefix in capitals. */
const normalise = (register: DoctorRegister, number: string) => {
  const trimmed = number.trim();
  return register === 'AHPRA' ? trimmed.toUpperCase() : trimmed;
};

export const DoctorRegisterField = z.enum(DOCTOR_REGISTERS, { error: REGISTER_REQUIRED });

/** POST /doctor/signup's `registration`. The number's message is on `registration.number`. */
export const DoctorRegistration = z
  .strictObject({
    register: DoctorRegisterField,
    number: z.string({ error: 'Enter your registration number' }).max(60),
  })
  .transform((r) => ({ register: r.register, number: normalise(r.register, r.number) }))
  .superRefine((r, ctx) => {
    const problem = registrationNumberProblem(r.register, r.number);
    if (problem) ctx.addIssue({ code: 'custom', path: ['number'], message: problem });
  });
export type DoctorRegistration = z.input<typeof DoctorRegistration>;

/**
 * A doctor's registration as the doctor and their patients see it. register and number are null
 * for an account made before registrations were asked, and in a patient's own sent request (withheld
 * like the doctor's name until the doctor accepts); verified only once an operator checked it.
 */
export const RegistrationStatus = z.object({
  register: DoctorRegisterField.nullable(),
  number: z.string().nullable(),
  verified: z.boolean(),
});
export type RegistrationStatus = z.infer<typeof RegistrationStatus>;

/** "GMC 1234567"; null when none was given. */
export function registrationName(r: Pick<RegistrationStatus, 'register' | 'number'>): string | null {
  return r.register && r.number ? `${r.register} ${r.number}` : null;
}

/**
 * "Registration GMC 1234567, verified": the line a patient reads on a doctor's card. Without a
 * number (none given, or withheld with the name of a doctor who has not accepted): "Registration verified".
 */
export function registrationLine(r: RegistrationStatus): string {
  const name = registrationName(r);
  const state = r.verified ? 'verified' : 'not verified';
  return name ? `Registration ${name}, ${state}` : `Registration ${state}`;
}

/** 403 to an unverified doctor's connection request (the api's access layer). */
export const REGISTRATION_UNVERIFIED =
  'Your professional registration has not been verified yet; connection requests open once an operator verifies it.';
