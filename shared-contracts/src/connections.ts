import { z } from 'zod';
import { REQUEST_ACTIONS } from './constants';
import { Email, EntityId } from './common';
import { RegistrationStatus } from './registration';

/** POST /doctor/requestPatient, POST /patient/requestDoctor: the other party's e-mail. */
export const ConnectionRequestBody = z.strictObject({ email: Email });

const Party = z.object({ name: z.string(), email: z.string() });

/** A pending request as both lists show it; its status is kept server-side, never shown. */
export const ConnectionRequest = z.object({
  _id: EntityId,
  /** the doctor's registration, so a patient sees whether it was verified before answering */
  doctor: Party.extend({ registration: RegistrationStatus }),
  patient: Party,
});
export type ConnectionRequest = z.infer<typeof ConnectionRequest>;
export const ConnectionRequestList = z.array(ConnectionRequest);

export const ConnectionResponseBody = z.strictObject({ action: z.enum(REQUEST_ACTIONS) });
export const RequestIdParams = z.strictObject({ requestId: EntityId });

/** DELETE /patient/doctors/{doctorId} and DELETE /doctor/patients/{patientId}: the other party of an assignment. */
export const AssignedDoctorParams = z.strictObject({ doctorId: EntityId });
export const AssignedPatientParams = z.strictObject({ patientId: EntityId });

export const AssignedDoctor = z.object({ doctor: EntityId, name: z.string(), registration: RegistrationStatus });
export type AssignedDoctor = z.infer<typeof AssignedDoctor>;
