// Client-facing texts shared by several modules (tests assert them too).
export const DUPLICATE_EMAIL = 'An account with this e-mail already exists';
export const BAD_CREDENTIALS = 'Invalid e-mail or password';
