/*
 * The access layer: the ONE place that reads or writes patients' data (medical records,
 * prescriptions, medical files, reminders, assignments). Code outside src/access may use only
 * what this file exports — checked, audited operations — never the tables or the files beside
 * this one (.dependency-cruiser.cjs, tested by src/quality/access-boundary.test.ts).
 */

// Requests: the caller's per-request access (404 for what they may not see; audited).
export { accessFor, PatientAccess, type PageRequest } from './patient-access';
export type { Caller } from './policy';
// The allergy list (issue 13): its reads and writes, and THE allergy entries every alert is computed from.
export { AllergyAccess, allergyAccessFor } from './allergies';
export { allergyEntriesFor, categoryOf, unreviewedReadings, type AllergyNote } from './allergy-entries';
export * from './messages';
export {
  actorOf,
  auditDenied,
  auditPatientsListed,
  securityEvent,
  signedInFrom,
  type AuditAction,
  type AuditActor,
  type AuditEntity,
} from './audit';
export type { ListScope, Page } from './pagination';
export { EVERY_ROW_KIND } from './fhir';
export type { DoctorRow, FhirRowKind, FhirSlice, PatientRows } from './fhir';
// A stored record in the contract's shape (pure): FHIR reads its vital signs through clinical/.
export { toMedicalRecord } from './records';

// The local disk's signed URLs (no bearer; the signature names who the URL was issued to).
export { fileSweep, signedDownload, signedUploads } from './signed-files';

// Connections: the doctor–patient assignments every check above reads, made when a request is
// accepted, ended (audited) when either side revokes.
export { assign, assignedDoctorsJson, assignedDoctorsOf, assignedPatientsOf, isAssigned, revokeAssignment } from './assignments';

// Professional registrations: a doctor asks a patient to connect only once an operator verified theirs.
export { registrationColumns, requireVerifiedRegistration, toRegistrationStatus } from './registration';

// Notifications: written by the events above in their own transaction (notify, with the request's
// notifier); read and marked by their own account only (NotificationAccess).
export {
  NotificationAccess,
  notificationAccessFor,
  notificationMail,
  notifierFor,
  notify,
  type About,
  type NotificationEvent,
  type Notifier,
} from './notifications';

// Drafts: a doctor's unsent forms, reached by their author only while assigned to the patient.
export { DraftAccess, draftAccessFor } from './drafts';

// System actor: the reminder runner is a background job, not a request; it sends what doctors scheduled.
export { deliveriesOf, reminderBody, runDueReminders, type RunnerContext, type RunResult } from './reminder-runner';
// System actor: a restore from backup skips the reminder occurrences that were already due (ops/restore.ts).
export { skipPastReminderOccurrences, stopRetriesAfterRestore } from './reminder-restore';

// Tests and diagnostics (no patient data leaves through these; they EXPLAIN or count).
export { reminderLagSeconds } from './reminders';
export { prescriptionListQueries, prescriptionStatus } from './prescriptions';
export { recordListQueries } from './records';

// System actor: the owner of an address taking over or disowning an unverified account (modules/account/takeover).
export { namedByClinicalRows, wipeHolderData } from './takeover';
