// Client-facing texts shared by several modules (tests assert them too).
// the web apps read this one too, so it lives in shared-contracts
export { DUPLICATE_EMAIL } from '@careloop/shared-contracts';
export const BAD_CREDENTIALS = 'Invalid e-mail or password';
