import { z } from 'zod';
import { AuditPage, AuditQuery } from '../audit';
import { endpoint } from '../endpoint';
import {
  FileStored,
  MedicalFilesQuery,
  MedicalFilesResponse,
  SignedFileParams,
  SignedFileQuery,
  UploadUrlQuery,
  UploadUrlResponse,
} from '../files';
import {
  DrugAlertQuery,
  DrugAlertResponse,
  OverrideRequired,
  Prescription,
  PrescriptionCreate,
  PrescriptionCreated,
  PrescriptionList,
  PrescriptionStop,
} from '../prescriptions';
import {
  MedicalRecord,
  MedicalRecordCreate,
  MedicalRecordCreated,
  MedicalRecordList,
  PageQuery,
  PatientIdParams,
  RecordIdParams,
  SummaryResponse,
} from '../records';
import { MessageResponse } from '../security';
import { VitalSignTrend, VitalSignTrendQuery } from '../vital-sign-trend';
import { WorklistResponse } from '../worklist';
import { Reminder, ReminderCreate, ReminderIdParams, ReminderList } from '../reminders';

const anyRole = ['patient', 'doctor'] as const;

/** The summary call's body: `{}`, or nothing at all. */
export const SummaryBody = z.strictObject({}).nullish();

/** Medical records and their decision-support summary (api/src/modules/records). */
export const RECORD_ENDPOINTS = {
  createMedicalRecord: endpoint({
    method: 'POST',
    path: '/medicalhistory/{patientId}',
    summary: 'Create a medical record for an assigned patient (doctor); a stop alert needs overrideReason (else 409)',
    description:
      "The treatment's drug is checked as a prescription is. A stop alert without `overrideReason` answers 409 with the alerts and writes nothing; with it the record is created and an 'override' audit row keeps the reason. An `observedAt` later than now (the clinic's time zone, 5 minutes' clock skew allowed) answers 400 'Observation time cannot be in the future' and writes nothing.",
    tags: ['medical records'],
    access: ['doctor'],
    params: PatientIdParams,
    body: MedicalRecordCreate,
    status: 201,
    response: MedicalRecordCreated,
    errors: [400, 401, 403, 404],
    otherResponses: { 409: OverrideRequired },
  }),
  listMedicalRecords: endpoint({
    method: 'GET',
    path: '/medicalhistories',
    summary: "Records, newest first: the patient's own, or the doctor's assigned patients'",
    tags: ['medical records'],
    access: anyRole,
    query: PageQuery,
    status: 200,
    response: MedicalRecordList,
    errors: [400, 401, 403, 404],
  }),
  getMedicalRecord: endpoint({
    method: 'GET',
    path: '/medicalHistory/{id}',
    summary: 'One medical record (its patient, or a doctor assigned to them)',
    tags: ['medical records'],
    access: anyRole,
    params: RecordIdParams,
    status: 200,
    response: MedicalRecord,
    errors: [400, 401, 403, 404],
  }),
  summarizeMedicalRecord: endpoint({
    method: 'POST',
    path: '/medicalhistory/summary/{id}',
    summary: "Generate (or regenerate) a record's decision-support summary (assigned doctor)",
    description: 'id is the medical record. The body is `{}` or empty.',
    tags: ['medical records'],
    access: ['doctor'],
    params: RecordIdParams,
    body: SummaryBody,
    status: 200,
    response: SummaryResponse,
    errors: [400, 401, 403, 404],
  }),
  doctorWorklist: endpoint({
    method: 'GET',
    path: '/doctor/worklist',
    summary: "The doctor's assigned patients, most at risk first, with their latest NEWS2 and its change",
    description:
      "Each assigned patient once, with the latest record's NEWS2 (complete, or a lower bound with the missing parameters), the change since the previous record (null unless both scores are complete) and the time of the latest record. Order: api/src/clinical/worklist.ts.",
    tags: ['medical records'],
    access: ['doctor'],
    status: 200,
    response: WorklistResponse,
    errors: [401, 403],
  }),
};

/** A patient's vital signs across their records, for the trend chart (api/src/modules/vital-signs). */
export const TREND_ENDPOINTS = {
  vitalSignTrend: endpoint({
    method: 'GET',
    path: '/vital-signs',
    summary:
      "NEWS2 and vital signs across the patient's latest records, oldest first, with the reference bands: the patient's own, or an assigned patient's (doctor, patientId required)",
    description:
      'Each measure is a number only when its reading is usable, else null (not measured, unreadable or implausible). `at` is the observation time when recorded, else when the record was written, in the clinic time zone.',
    tags: ['medical records'],
    access: anyRole,
    query: VitalSignTrendQuery,
    status: 200,
    response: VitalSignTrend,
    errors: [400, 401, 403, 404],
  }),
};

/** Prescriptions and the prescribing check: allergies and interactions (api/src/modules/prescriptions). */
export const PRESCRIPTION_ENDPOINTS = {
  createPrescription: endpoint({
    method: 'POST',
    path: '/prescription/{id}',
    summary: 'Prescribe for an assigned patient (doctor); a stop alert needs overrideReason (else 409)',
    // SPEC §7 names it {patientId}; one name per path position keeps the OpenAPI paths unambiguous.
    description:
      "id is the PATIENT the prescription is for (GET /prescription/{id} reads a prescription by its own id). Warnings and information never block; a stop alert without `overrideReason` answers 409 with the alerts and writes nothing; with it the prescription is created, carrying the alerts it overrode, the reason, who and when (and an 'override' audit row).",
    tags: ['prescriptions'],
    access: ['doctor'],
    params: RecordIdParams,
    body: PrescriptionCreate,
    status: 201,
    response: PrescriptionCreated,
    errors: [400, 401, 403, 404],
    otherResponses: { 409: OverrideRequired },
  }),
  listPrescriptions: endpoint({
    method: 'GET',
    path: '/prescription',
    summary: "Prescriptions, newest first: the patient's own, or the doctor's assigned patients'",
    tags: ['prescriptions'],
    access: anyRole,
    query: PageQuery,
    status: 200,
    response: PrescriptionList,
    errors: [400, 401, 403, 404],
  }),
  getPrescription: endpoint({
    method: 'GET',
    path: '/prescription/{id}',
    summary: 'One prescription (its patient, or a doctor assigned to them)',
    description: 'id is the prescription.',
    tags: ['prescriptions'],
    access: anyRole,
    params: RecordIdParams,
    status: 200,
    response: Prescription,
    errors: [400, 401, 403, 404],
  }),
  stopPrescription: endpoint({
    method: 'POST',
    path: '/prescription/{id}/stop',
    summary: 'Stop an active prescription, with a reason (a doctor assigned to its patient)',
    description:
      'id is the prescription. It stops counting as an active medication at once; the reason, who and when are kept with it and in the audit log. A prescription already stopped or past its last day answers 409.',
    tags: ['prescriptions'],
    access: ['doctor'],
    params: RecordIdParams,
    body: PrescriptionStop,
    status: 200,
    response: Prescription,
    errors: [400, 401, 403, 404, 409],
  }),
  drugAlerts: endpoint({
    method: 'GET',
    path: '/drug-alerts/{patientId}',
    summary: "A drug checked against the patient's allergies (on file and typed) and active medications (assigned doctor)",
    tags: ['prescriptions'],
    access: ['doctor'],
    params: PatientIdParams,
    query: DrugAlertQuery,
    status: 200,
    response: DrugAlertResponse,
    errors: [400, 401, 403, 404],
  }),
};

/** The patient's access history (api/src/modules/audit). */
export const AUDIT_ENDPOINTS = {
  accessHistory: endpoint({
    method: 'GET',
    path: '/patient/audit',
    summary: "Who accessed the caller's medical data, and the account's security log, newest first (patient)",
    tags: ['audit'],
    access: ['patient'],
    query: AuditQuery,
    status: 200,
    response: AuditPage,
    errors: [400, 401, 403],
  }),
  doctorAccessHistory: endpoint({
    method: 'GET',
    path: '/doctor/audit',
    summary: "The caller's security log, ended connections and overrides of stop alerts, newest first (doctor)",
    tags: ['audit'],
    access: ['doctor'],
    query: AuditQuery,
    status: 200,
    response: AuditPage,
    errors: [400, 401, 403],
  }),
};

/** Medical PDF files (api/src/modules/files). */
export const FILE_ENDPOINTS = {
  uploadUrl: endpoint({
    method: 'GET',
    path: '/medical-record/{patientId}',
    summary: 'A one-time URL to PUT one PDF (max MAX_UPLOAD_MB) to; the patient themself only',
    tags: ['medical files'],
    access: ['patient'],
    params: PatientIdParams,
    query: UploadUrlQuery,
    status: 200,
    response: UploadUrlResponse,
    errors: [400, 401, 403, 404],
  }),
  listMedicalFiles: endpoint({
    method: 'GET',
    path: '/medical-record',
    summary:
      "Stored PDFs, newest first, as expiring inline URLs: the patient's own, or an assigned patient's (doctor, patientId required)",
    tags: ['medical files'],
    access: anyRole,
    query: MedicalFilesQuery,
    status: 200,
    response: MedicalFilesResponse,
    errors: [400, 401, 403, 404],
  }),
  // Local-disk storage only: the HMAC signature in the URL is the authority, not a bearer token.
  putSignedFile: endpoint({
    method: 'PUT',
    path: '/files/{patientId}/{file}',
    summary: 'Upload the PDF to a signed URL from GET /medical-record/{patientId} (Content-Type: application/pdf)',
    description: 'The body is the raw PDF, streamed; the URL comes from uploadUrl and is used as is.',
    tags: ['medical files'],
    access: 'public',
    params: SignedFileParams,
    query: SignedFileQuery,
    status: 200,
    response: FileStored,
    errors: [403, 404, 409, 413, 415],
  }),
  getSignedFile: endpoint({
    method: 'GET',
    path: '/files/{patientId}/{file}',
    summary: 'Read a PDF through a signed URL from GET /medical-record',
    description: 'Answers the PDF itself (application/pdf, inline).',
    tags: ['medical files'],
    access: 'public',
    params: SignedFileParams,
    query: SignedFileQuery,
    status: 200,
    response: null,
    errors: [403, 404],
  }),
};

/** E-mail reminders a doctor schedules for an assigned patient (api/src/modules/reminders). */
export const REMINDER_ENDPOINTS = {
  scheduleReminder: endpoint({
    method: 'POST',
    path: '/doctor/reminder',
    summary:
      "Schedule an e-mail to an assigned patient: once (intervalDays 0) or every n days from startDate (409 while the patient's e-mail is unverified)",
    tags: ['reminders'],
    access: ['doctor'],
    body: ReminderCreate,
    status: 201,
    response: Reminder,
    errors: [400, 401, 403, 404, 409, 429],
  }),
  listReminders: endpoint({
    method: 'GET',
    path: '/doctor/reminders',
    summary: "The doctor's reminders, newest first",
    tags: ['reminders'],
    access: ['doctor'],
    status: 200,
    response: ReminderList,
    errors: [401, 403],
  }),
  cancelReminder: endpoint({
    method: 'DELETE',
    path: '/doctor/reminders/{id}',
    summary: 'Cancel a reminder: nothing more is sent (retries of failed sends included)',
    tags: ['reminders'],
    access: ['doctor'],
    params: ReminderIdParams,
    status: 200,
    response: MessageResponse,
    errors: [400, 401, 403, 404],
  }),
};
