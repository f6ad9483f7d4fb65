import { z } from 'zod';
import { DOCTOR_REGISTERS, REGISTER_REQUIRED, registrationNumberProblem, type DoctorRegister } from './registration-text';

export * from './registration-text';

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
