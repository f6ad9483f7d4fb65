// The access layer's answers (SPEC §8 texts): a patient, record or prescription the caller may not
// see is answered exactly as a missing one. The route modules' messages.ts re-export these.
export const PATIENT_NOT_FOUND = 'Patient not found';
export const RECORD_NOT_FOUND = 'Medical record not found';
export const PRESCRIPTION_NOT_FOUND = 'Prescription not found';
export const OWN_RECORD_ONLY = 'You can only upload files to your own medical record';
export const PATIENT_ID_REQUIRED = 'patientId is required';
export const NOT_YOUR_PATIENT = 'You can only send reminders to your assigned patients';
/** 409, to the patient's own doctor only (asked after the assignment check, so it reveals nothing to others). */
export const PATIENT_EMAIL_UNVERIFIED =
  'This patient has not verified their e-mail address yet: reminders can be scheduled once they have';
export const REMINDER_NOT_FOUND = 'Reminder not found';
export const tooManyReminders = (perHour: number) =>
  `Too many reminders: at most ${perHour} can be scheduled in an hour. Try again later.`;
export const DOCTOR_NOT_FOUND = 'Doctor not found';
export const DOCTOR_ACCESS_ENDED = 'Access ended.';
export { YOUR_ACCESS_ENDED } from '@careloop/shared-contracts';
export const PATIENT_RELEASED = 'Patient released.';
/** Another account's notification is answered exactly as a missing one. */
export const NOTIFICATION_NOT_FOUND = 'Notification not found';
export const NOTIFICATION_KIND_NOT_YOURS = 'preferences: a kind of notification your account does not receive';
