export { NOT_YOUR_PATIENT, REMINDER_NOT_FOUND } from '../../access';
export const REMINDER_CANCELLED = 'Reminder cancelled.';
