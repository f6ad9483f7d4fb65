import { registrationName, type RegistrationStatus } from '@careloop/shared-contracts';

/**
 * Why a doctor may not send connection requests yet (their registration awaits an operator), or
 * undefined when they may: `mayRequestConnections` is the api's answer (DOCTOR_VERIFICATION=off opens them).
 */
export function awaitingVerification(doctor?: {
  registration: RegistrationStatus;
  mayRequestConnections: boolean;
}): string | undefined {
  if (!doctor || doctor.mayRequestConnections) return undefined;
  const name = registrationName(doctor.registration);
  return `${name ? `Your registration ${name}` : 'Your professional registration'} is awaiting verification. You can send connection requests once it is verified.`;
}
