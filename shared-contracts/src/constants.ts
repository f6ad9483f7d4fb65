/** SPEC §9 business constants, one place for api and apps. */
export const PAGE_SIZE = 10;
export const TWO_FACTOR_VERIFY_DELAY_MS = 800;
export const REQUEST_LIST_REFRESH_DELAY_MS = 400;
export const MIN_PULSE = 78;
export const MIN_RESPIRATORY_RATE = 16;
export const MIN_YEARS_OF_EXPERIENCE = 1;
export const MIN_REMINDER_INTERVAL_DAYS = 0;
export const CONTACT_EMAIL = 'contact@careloop.example';
