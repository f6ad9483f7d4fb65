export { OWN_RECORD_ONLY, PATIENT_ID_REQUIRED } from '../../access';
export const ONLY_PDF = 'Only PDF files are accepted';
export const URL_USED = 'This upload URL has already been used';
export const URL_EXPIRED = 'This link has expired';
export const URL_INVALID = 'Invalid or missing signature';
