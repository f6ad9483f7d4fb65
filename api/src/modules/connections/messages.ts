import type { Role } from 'shared-contracts';

export { DOCTOR_ACCESS_ENDED, DOCTOR_NOT_FOUND, PATIENT_NOT_FOUND, PATIENT_RELEASED } from '../../access';

/** The texts the connect screens show (SPEC §8: message in green, "Error: " + error otherwise). */
export const requestSent = (name: string) => `Request sent to ${name}.`;
export const noAccount = (wanted: Role) => `No ${wanted} with this e-mail`;
export const wrongRole = (wanted: Role, found: Role) => `This e-mail belongs to a ${found} account, not a ${wanted}`;
export const REQUEST_TO_SELF = 'You cannot send a request to yourself';
export const ALREADY_PENDING = 'A request between you is already pending';
export const ALREADY_CONNECTED = 'You are already connected';
export const REQUEST_ACCEPTED = 'Request accepted.';
export const REQUEST_CANCELLED = 'Request cancelled.';
export const ONLY_ADDRESSEE_ACCEPTS = 'Only the person who received this request can accept it';
export const REQUEST_NOT_FOUND = 'Request not found';
export const ALREADY_ANSWERED = 'This request has already been answered';
