export const ONLY_PDF = 'Only PDF files are accepted';
export const OWN_RECORD_ONLY = 'You can only upload files to your own medical record';
export const PATIENT_ID_REQUIRED = 'patientId is required';
export const URL_USED = 'This upload URL has already been used';
export const URL_EXPIRED = 'This link has expired';
export const URL_INVALID = 'Invalid or missing signature';
