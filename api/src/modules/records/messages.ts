export const PATIENT_NOT_FOUND = 'Patient not found';
export const RECORD_NOT_FOUND = 'Medical record not found';
export const PRESCRIPTION_NOT_FOUND = 'Prescription not found';
