import type { Role } from '@careloop/shared-contracts';

export { DOCTOR_ACCESS_ENDED, DOCTOR_NOT_FOUND, PATIENT_NOT_FOUND, PATIENT_RELEASED } from '../../access';

/** The texts the connect screens show (SPEC §8: message in green, "Error: " + error otherwise). */
/** Names the address the sender typed, never the addressee (whose name the sender may not know). */
export const requestSent = (email: string) => `Request sent to ${email}.`;
/** Unknown, unverified and other-role addresses alike: the answer never tells which. */
export const noAccount = (wanted: Role) => `No ${wanted} with this e-mail`;
export const VERIFY_FIRST = 'Verify your e-mail address first: follow the link we sent you, then send the request again';
export const TOO_MANY_REQUESTS = 'Too many connection requests in the last hour. Please try again later.';
export const REQUEST_TO_SELF = 'You cannot send a request to yourself';
export const ALREADY_PENDING = 'A request between you is already pending';
export const ALREADY_CONNECTED = 'You are already connected';
export const REQUEST_ACCEPTED = 'Request accepted.';
export const REQUEST_CANCELLED = 'Request cancelled.';
export const ONLY_ADDRESSEE_ACCEPTS = 'Only the person who received this request can accept it';
export const REQUEST_NOT_FOUND = 'Request not found';
export const ALREADY_ANSWERED = 'This request has already been answered';
