export const NOT_YOUR_PATIENT = 'You can only send reminders to your assigned patients';
export const REMINDER_NOT_FOUND = 'Reminder not found';
export const REMINDER_CANCELLED = 'Reminder cancelled.';
