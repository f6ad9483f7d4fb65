import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  AllergyReaction,
  Assessment,
  AuditAction,
  AuditEntity,
  MedicalRecord,
  ParsedMedicalRecordCreate,
  Pregnancy,
  PrescriptionOverride,
  SummaryInfo,
} from '@careloop/shared-contracts';
import type {
  ALLERGY_CATEGORIES,
  ALLERGY_CLINICAL_STATUSES,
  ALLERGY_CRITICALITIES,
  ALLERGY_TYPES,
  ALLERGY_VERIFICATION_STATUSES,
} from '@careloop/shared-contracts';

// Patients and doctors are separate tables: an e-mail is unique per role, not across roles.
// E-mails are stored lower-cased (the contract lower-cases them), so a plain unique index is enough.

/**
 * Two-factor state, the same on both account tables. Secrets are AES-256-GCM ciphertexts
 * (lib/secret-box.ts), never plain. The failure count, the pending-login window and the last
 * accepted time step live here (not in memory) so every replica enforces them alike.
 */
const twoFactor = {
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  /** The secret codes are checked against while two-factor is on. */
  twoFactorSecret: text('two_factor_secret'),
  /** A secret shown by GET /{role}/qrCode and not yet confirmed by a code. */
  twoFactorPendingSecret: text('two_factor_pending_secret'),
  /** RFC 6238 time step of the last accepted code: that code and older ones are refused (replay). */
  twoFactorLastStep: bigint('two_factor_last_step', { mode: 'number' }),
  /** Failed codes in the current 15-minute window, and when that window started. */
  twoFactorFailures: integer('two_factor_failures').notNull().default(0),
  twoFactorFailuresSince: timestamp('two_factor_failures_since', { withTimezone: true }),
  twoFactorLockedUntil: timestamp('two_factor_locked_until', { withTimezone: true }),
  /** After a right password, POST /{role}/verify2FA is accepted until then. */
  twoFactorLoginUntil: timestamp('two_factor_login_until', { withTimezone: true }),
};

/**
 * When the account's e-mail was proven by a link sent to it (null: not yet). An unverified account
 * is invisible to the other role's connection requests, gets no reminders and is never linked by
 * Google sign-in (issue 11).
 */
const emailVerification = {
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
};

/**
 * Moves on (a trigger, migration 0016) whenever the account's e-mail, password or verification
 * state changes. A reset link or verification token carries the version it was issued at and is
 * void once the account has moved on, whatever code path changed it.
 */
const securityVersion = {
  securityVersion: integer('security_version').notNull().default(0),
};

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const patients = pgTable('patients', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull().unique('patients_email_unique'),
  passwordHash: text('password_hash').notNull(),
  dob: date('dob', { mode: 'string' }),
  gender: text('gender').notNull().default('Prefer not to say'),
  maritalStatus: text('marital_status').notNull().default('Unmarried'),
  occupation: text('occupation').notNull().default(''),
  // Four columns rather than one JSON value so a partial address update touches only its fields.
  addressStreet: text('address_street').notNull().default(''),
  addressCity: text('address_city').notNull().default(''),
  addressState: text('address_state').notNull().default(''),
  addressPinCode: text('address_pin_code').notNull().default(''),
  /** false for an account made by Google sign-in until /patient/complete-profile is done. */
  profileComplete: boolean('profile_complete').notNull().default(true),
  /** set by a doctor: NEWS2 is not validated in pregnancy (shared-contracts Pregnancy) */
  pregnancy: jsonb('pregnancy').$type<Pregnancy>(),
  /**
   * Moves on (a trigger, migration 0011) whenever something a record's assessment reads changes:
   * the date of birth, pregnancy, an allergy entry, a prescription, a new record (its allergy note).
   * An assessment or summary computed at an older version is out of date.
   */
  clinicalVersion: integer('clinical_version').notNull().default(0),
  ...emailVerification,
  ...twoFactor,
  ...securityVersion,
  ...timestamps,
});

export const doctors = pgTable('doctors', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull().unique('doctors_email_unique'),
  passwordHash: text('password_hash').notNull(),
  yearsOfExperience: integer('years_of_experience').notNull().default(1),
  specialization: text('specialization')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  qualifications: text('qualifications')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  gender: text('gender').notNull().default('Prefer not to say'),
  // The professional registration (shared-contracts registration.ts). Null register and number:
  // an account made before they were asked. Unverified (null) until an operator verifies it
  // (modules/profiles/registration.ts); only then may the doctor send connection requests.
  registrationRegister: text('registration_register'),
  registrationNumber: text('registration_number'),
  registrationVerifiedAt: timestamp('registration_verified_at', { withTimezone: true }),
  registrationVerifiedBy: text('registration_verified_by'),
  ...emailVerification,
  ...twoFactor,
  ...securityVersion,
  ...timestamps,
});

export const ACCOUNT_TOKEN_PURPOSES = ['email-verify', 'handoff', 'password-reset'] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/**
 * One-time tokens sent to or handed to an account's owner (issued, checked and spent only through
 * lib/one-time-token.ts): 'email-verify' proves `email` (the signup address, or a new address asked
 * for in PATCH /{role}/me, which takes effect only then); 'handoff' is the one-time code of the
 * Google sign-in redirect, exchanged for a session (POST /{role}/auth/exchange); 'password-reset' is
 * the mailed reset link. Only the SHA-256 of the token is stored.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose').$type<AccountTokenPurpose>().notNull(),
    role: text('role').notNull(),
    accountId: uuid('account_id').notNull(),
    /** the address an 'email-verify' token proves; null for the other purposes */
    email: text('email'),
    /** the account's security_version when issued: void once it has moved on (null: issued before binding, void) */
    accountVersion: integer('account_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('account_tokens_account_idx').on(t.role, t.accountId, t.purpose, t.createdAt),
    index('account_tokens_expires_idx').on(t.expiresAt),
    check('account_tokens_purpose_check', sql`${t.purpose} in ('email-verify', 'handoff', 'password-reset')`),
  ],
);

/** The two account tables share their account columns; code that serves both roles picks one by role. */
export const accountTables = { patient: patients, doctor: doctors } as const;

/** Bearer sessions. Only the SHA-256 of the token is stored: a database leak yields no usable token. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique('sessions_token_hash_unique'),
    role: text('role').notNull(),
    // No foreign key: the account lives in patients or doctors depending on role.
    accountId: uuid('account_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** the last authenticated request (the process's clock, like created_at), moved on at most once a minute: the idle limit reads it */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** the User-Agent and client address at sign-in, for the owner's list of sessions */
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip'),
  },
  (t) => [index('sessions_account_idx').on(t.role, t.accountId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Single-use recovery codes of an account with two-factor on: ten are made at enrolment (or again,
 * replacing the old ones, after re-authentication) and shown once. Only a hash of each is stored.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    role: text('role').notNull(),
    accountId: uuid('account_id').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_account_idx').on(t.role, t.accountId)],
);

/**
 * Connection requests that found no account (unknown, unverified or other-role address): nothing
 * else is written for them, yet they count toward the sender's hourly limit like sent requests.
 */
export const connectionMisses = pgTable(
  'connection_misses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    role: text('role').notNull(),
    accountId: uuid('account_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('connection_misses_sender_idx').on(t.role, t.accountId, t.at)],
);

/**
 * Consecutive failed logins per (role, e-mail, client address), kept in the database so every
 * replica sees the same count. A lockout holds that pair only, so a guesser elsewhere cannot lock
 * the owner out; the sum over clients slows a distributed guess on one account. Keyed by the
 * e-mail typed, not the account, so unknown e-mails behave the same (no account enumeration).
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    role: text('role').notNull(),
    email: text('email').notNull(),
    client: text('client').notNull().default(''),
    failures: integer('failures').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.role, t.email, t.client] }), index('login_failures_updated_idx').on(t.updatedAt)],
);

/**
 * OpenID Connect logins in flight (state, nonce, PKCE verifier), in the database so any replica
 * can finish a flow another one started. Keyed by the SHA-256 of the state; 10 minutes; single use.
 */
export const oidcLogins = pgTable(
  'oidc_logins',
  {
    stateHash: text('state_hash').primaryKey(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oidc_logins_expires_idx').on(t.expiresAt)],
);

/**
 * Requests to connect a doctor and a patient, sent by either side. Answered requests are kept
 * (status accepted or rejected, responded_at set) but only pending ones are ever listed.
 */
export const connectionRequests = pgTable(
  'connection_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => doctors.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    /** The role of the sender: 'doctor' or 'patient'; the other party is the addressee. */
    initiatedBy: text('initiated_by').notNull(),
    status: text('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
  },
  (t) => [
    // At most one pending request per pair, whichever side sent it. This index, not a prior
    // SELECT, is what refuses a duplicate: two simultaneous requests cannot both get in.
    uniqueIndex('connection_requests_one_pending_idx')
      .on(t.doctorId, t.patientId)
      .where(sql`status = 'pending'`),
    index('connection_requests_doctor_idx').on(t.doctorId, t.status),
    index('connection_requests_patient_idx').on(t.patientId, t.status),
    check('connection_requests_initiated_by_check', sql`${t.initiatedBy} in ('doctor', 'patient')`),
    check('connection_requests_status_check', sql`${t.status} in ('pending', 'accepted', 'rejected')`),
  ],
);

/**
 * Who is connected to whom: a row per (doctor, patient) pair, made when a request is accepted.
 * Every permission check between a doctor and a patient reads this table, through the access
 * layer (src/access/assignments.ts, isAssigned) and nothing else.
 */
export const assignments = pgTable(
  'assignments',
  {
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => doctors.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.doctorId, t.patientId] }), index('assignments_patient_idx').on(t.patientId)],
);

/*
 * Clinical records (SPEC §3). The server fills biodata (a snapshot of the patient's profile on the
 * day of admission) and doctorInfo; the history texts, the systemic history, the examination, the
 * investigations and the treatment are stored as the validated payload sections (jsonb).
 * Lists page through (patient_id, created_at DESC, id DESC): a patient's own list, and a doctor's
 * list of their assigned patients' records (one short index range per assigned patient).
 * No ON DELETE CASCADE: clinical records must never disappear with an account by accident.
 */
/**
 * The vital signs (shared-contracts VITAL_SIGNS, but the SpO2 scale, which qualifies a reading and
 * always has a value) whose presence makes a record an observation set. A stored column: a vital
 * sign added to VITAL_SIGNS is added here with a migration (record-descriptor.test.ts compares the
 * two lists). drizzle-kit writes that migration as a drop and re-add of the column, which drops
 * medical_records_patient_vitals_idx with it: add the index back in the same migration.
 */
export const HAS_VITALS_KEYS = [
  'bloodPressure',
  'pulse',
  'temperature',
  'respiratoryRate',
  'oxygenSaturation',
  'supplementalOxygen',
  'consciousness',
  'bloodSugarLevel',
] as const;

/** A vital sign is present: any of the examination's measurements is not empty (immutable, so a stored column). */
const HAS_VITALS = sql.raw(
  `(${HAS_VITALS_KEYS.map((k) => `coalesce(btrim(examination->'generalPhysicalExamination'->>'${k}'), '') <> ''`).join(' or ')})`,
);

export const medicalRecords = pgTable(
  'medical_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    /** the doctor who wrote the record */
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => doctors.id),
    title: text('title').notNull(),
    /** the decision-support summary, once a doctor has generated it */
    summary: text('summary'),
    biodata: jsonb('biodata').$type<MedicalRecordBiodata>().notNull(),
    doctorInfo: jsonb('doctor_info').$type<MedicalRecordDoctorInfo>().notNull(),
    /** the eleven history texts (historyOfPresentingComplaints … socioeconomicHistory), allergies included */
    history: jsonb('history').$type<MedicalRecordHistory>().notNull(),
    systemicHistory: jsonb('systemic_history').$type<MedicalRecordSystemicHistory>().notNull(),
    examination: jsonb('examination').$type<MedicalRecordExamination>().notNull(),
    investigations: jsonb('investigations').$type<MedicalRecordInvestigations>().notNull(),
    treatment: jsonb('treatment').$type<MedicalRecordTreatment>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** the clinical assessment (src/clinical/assessment.ts), at the patient's clinical version it names */
    assessment: jsonb('assessment').$type<Assessment>(),
    summaryInfo: jsonb('summary_info').$type<SummaryInfo>(),
    /** any vital sign recorded: the worklist ranks by the latest record that has one */
    hasVitals: boolean('has_vitals').generatedAlwaysAs(HAS_VITALS),
  },
  (t) => [
    index('medical_records_patient_created_idx').on(t.patientId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('medical_records_doctor_created_idx').on(t.doctorId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // the worklist: each patient's latest observation set
    index('medical_records_patient_vitals_idx')
      .on(t.patientId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.hasVitals}`),
  ],
);

// The stored shapes are the contract's (shared-contracts/src/record-descriptor.ts), not declared again here.
export type MedicalRecordBiodata = MedicalRecord['biodata'];
export type MedicalRecordDoctorInfo = MedicalRecord['doctorInfo'];
/** The history texts of the payload's medicalHistory: everything but the title, biodata and systemic history. */
export type MedicalRecordHistory = Omit<ParsedMedicalRecordCreate['medicalHistory'], 'title' | 'biodata' | 'systemicHistory'>;
export type MedicalRecordSystemicHistory = ParsedMedicalRecordCreate['medicalHistory']['systemicHistory'];
export type MedicalRecordExamination = ParsedMedicalRecordCreate['examination'];
export type MedicalRecordInvestigations = ParsedMedicalRecordCreate['investigations'];
export type MedicalRecordTreatment = ParsedMedicalRecordCreate['treatment'];

/** Prescriptions (SPEC §3); assigned_by is the prescribing doctor's name at the time. */
export const prescriptions = pgTable(
  'prescriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => doctors.id),
    prescribedDrug: text('prescribed_drug').notNull(),
    dosage: text('dosage').notNull(),
    administrationRoute: text('administration_route').notNull(),
    dosageFrequency: text('dosage_frequency').notNull(),
    allergies: text('allergies')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    assignedBy: text('assigned_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** the last day of the course (the clinic's calendar); null: long-term or no end stated */
    endsOn: date('ends_on', { mode: 'string' }),
    longTerm: boolean('long_term').notNull().default(false),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    stoppedBy: text('stopped_by'),
    stopReason: text('stop_reason'),
    /** the stop alerts the prescriber proceeded past, the reason, who and when (PrescriptionOverride) */
    override: jsonb('override').$type<PrescriptionOverride>(),
    /** drug texts the check could not recognise when it was written */
    uncoded: text('uncoded')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    index('prescriptions_patient_created_idx').on(t.patientId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('prescriptions_doctor_created_idx').on(t.doctorId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The prescribing check reads each drug on file once (a skip through this index, prescribedDrugsOf)
    // and the allergy notes of only the prescriptions that carry some (allergyNotesOf): its cost
    // follows the patient's distinct drugs and notes, not the length of the history.
    index('prescriptions_patient_drug_idx').on(t.patientId, t.prescribedDrug, t.createdAt, t.id),
    index('prescriptions_patient_noted_idx')
      .on(t.patientId)
      .where(sql`cardinality(${t.allergies}) > 0`),
  ],
);

/**
 * A patient's allergies and intolerances in the shape of FHIR R4 AllergyIntolerance (issue 13;
 * shared-contracts/src/medication-safety.ts). Rows are written on the allergy list by doctors, or
 * reported by the patient (always 'unconfirmed'). `reviews` holds the normalised free-text note
 * (from a record or a prescription) this entry confirms, edits or refutes: such a note then no
 * longer counts on its own.
 */
export const allergyIntolerances = pgTable(
  'allergy_intolerances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    substanceText: text('substance_text').notNull(),
    /** the vocabulary's code; null = uncoded free text */
    substanceCode: text('substance_code'),
    type: text('type').$type<(typeof ALLERGY_TYPES)[number]>().notNull(),
    category: text('category').$type<(typeof ALLERGY_CATEGORIES)[number]>().notNull(),
    criticality: text('criticality').$type<(typeof ALLERGY_CRITICALITIES)[number]>().notNull(),
    reactions: jsonb('reactions')
      .$type<AllergyReaction[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    clinicalStatus: text('clinical_status').$type<(typeof ALLERGY_CLINICAL_STATUSES)[number]>().notNull(),
    verificationStatus: text('verification_status').$type<(typeof ALLERGY_VERIFICATION_STATUSES)[number]>().notNull(),
    note: text('note'),
    statusReason: text('status_reason'),
    reviews: text('reviews'),
    recordedById: uuid('recorded_by_id').notNull(),
    recordedByRole: text('recorded_by_role').$type<'patient' | 'doctor'>().notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('allergy_intolerances_patient_idx').on(t.patientId, t.recordedAt),
    check('allergy_intolerances_type_check', sql`${t.type} in ('allergy', 'intolerance')`),
    check('allergy_intolerances_category_check', sql`${t.category} in ('medication', 'food', 'environment')`),
    check('allergy_intolerances_criticality_check', sql`${t.criticality} in ('low', 'high', 'unable-to-assess')`),
    check('allergy_intolerances_clinical_check', sql`${t.clinicalStatus} in ('active', 'inactive', 'resolved')`),
    check('allergy_intolerances_verification_check', sql`${t.verificationStatus} in ('unconfirmed', 'confirmed', 'refuted')`),
    check('allergy_intolerances_role_check', sql`${t.recordedByRole} in ('doctor', 'patient')`),
  ],
);

/**
 * Who read or wrote which clinical record, when and from where. APPEND-ONLY: a trigger (migration
 * 0003, hand-written) raises on UPDATE, DELETE and TRUNCATE. No foreign keys, so no cascade can
 * ever try to delete from it; ids are kept as written.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    actorId: uuid('actor_id').notNull(),
    actorRole: text('actor_role').notNull(),
    action: text('action').$type<AuditAction>().notNull(),
    entity: text('entity').$type<AuditEntity>().notNull(),
    /** null for a list */
    entityId: uuid('entity_id'),
    /** the patient concerned (a list writes one row per patient it returned; older rows may be null) */
    patientId: uuid('patient_id'),
    ip: text('ip'),
    /** what a person wrote for the event: the reason given to override a stop alert (issue 13) */
    detail: text('detail'),
  },
  (t) => [
    index('audit_log_patient_at_idx').on(t.patientId, t.at),
    index('audit_log_actor_at_idx').on(t.actorId, t.at),
    index('audit_log_entity_at_idx').on(t.entityId, t.at),
    check('audit_log_actor_role_check', sql`${t.actorRole} in ('doctor', 'patient')`),
    check(
      'audit_log_action_check',
      sql`${t.action} in ('read', 'create', 'update', 'list', 'summarize', 'revoke', 'sign-in', 'sign-in-failed', 'sign-out', '2fa-on', '2fa-off', 'password-change', 'email-change', 'password-reset', 'email-verify', 'override', 'denied', 'sessions-ended', 'recovery-code-sign-in', 'recovery-codes', 'email-change-withdrawn', 'takeover', 'registration-verified')`,
    ),
    check(
      'audit_log_entity_check',
      sql`${t.entity} in ('medical_record', 'prescription', 'medical_file', 'reminder', 'assignment', 'account', 'allergy_intolerance', 'pregnancy')`,
    ),
  ],
);

export const MEDICAL_FILE_STATUSES = ['pending', 'stored', 'rejected'] as const;

/**
 * Medical PDFs (SPEC §3 "Medical file"). A row is made 'pending' when an upload URL is handed out;
 * it becomes 'stored' once the bytes are checked (size, `%PDF-`): on receipt for the local disk,
 * before the first listing for S3. 'rejected' files were deleted and are never listed.
 * storage_key is made by the server (`<patientId>/<uuid>.pdf`), never from the file name.
 */
export const medicalFiles = pgTable(
  'medical_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    storageKey: text('storage_key').notNull().unique('medical_files_storage_key_unique'),
    /** the display name, cleaned (adapters/storage safeFileName), at most 255 characters */
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }),
    status: text('status').$type<(typeof MEDICAL_FILE_STATUSES)[number]>().notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    storedAt: timestamp('stored_at', { withTimezone: true }),
  },
  (t) => [
    index('medical_files_patient_created_idx').on(t.patientId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('medical_files_status_check', sql`${t.status} in ('pending', 'stored', 'rejected')`),
    check('medical_files_file_name_check', sql`char_length(${t.fileName}) between 1 and 255`),
  ],
);

export const REMINDER_STATUS_VALUES = ['scheduled', 'completed', 'cancelled'] as const;

/**
 * E-mail reminders a doctor schedules for an assigned patient (SPEC §3 "Reminder").
 * next_run_at is the next occurrence still to send (null once completed or cancelled): the
 * runner (access/reminder-runner.ts) takes the reminders whose next_run_at has come.
 */
export const reminders = pgTable(
  'reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => doctors.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    /** Legacy: the address at scheduling time. Deliveries go to the patient's current, verified e-mail. */
    toEmail: text('to_email'),
    /** The patient's name when the reminder was scheduled: what the doctor sees once their access has ended. */
    patientName: text('patient_name'),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    intervalDays: integer('interval_days').notNull(),
    status: text('status').$type<(typeof REMINDER_STATUS_VALUES)[number]>().notNull().default('scheduled'),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    sentCount: integer('sent_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('reminders_doctor_created_idx').on(t.doctorId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('reminders_due_idx')
      .on(t.nextRunAt)
      .where(sql`status = 'scheduled'`),
    check('reminders_status_check', sql`${t.status} in ('scheduled', 'completed', 'cancelled')`),
    check('reminders_interval_days_check', sql`${t.intervalDays} >= 0`),
  ],
);

/**
 * A delivery's life: 'claimed' (a runner holds it until lease_until; the mailer has not been
 * called) → 'sending' (committed just before the mailer is called) → 'sent' | 'failed'.
 * 'unknown': a runner's lease ran out while the row was 'sending' — the mailer may or may not
 * have taken the message, so it is never sent again.
 */
export const DELIVERY_STATUSES = ['claimed', 'sending', 'sent', 'failed', 'unknown'] as const;

/**
 * One row per occurrence of a reminder. UNIQUE (reminder_id, occurrence_at) is what makes every
 * occurrence go out AT MOST ONCE across replicas: a runner sends only after its INSERT of the
 * row succeeded (or after a conditional UPDATE gave it the row's lease), and only while it still
 * holds that lease (lease_holder).
 */
export const reminderDeliveries = pgTable(
  'reminder_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reminderId: uuid('reminder_id')
      .notNull()
      .references(() => reminders.id),
    occurrenceAt: timestamp('occurrence_at', { withTimezone: true }).notNull(),
    status: text('status').$type<(typeof DELIVERY_STATUSES)[number]>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** when a failed send is tried again; null otherwise (and once given up) */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** when the current (or last) attempt started */
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** while 'claimed' or 'sending': the runner's hold ends then (a dead runner's row is taken back) */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** the claim holding the lease: a runner whose lease was taken over must not go on */
    leaseHolder: uuid('lease_holder'),
  },
  (t) => [
    unique('reminder_deliveries_occurrence_unique').on(t.reminderId, t.occurrenceAt),
    index('reminder_deliveries_retry_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'failed'`),
    index('reminder_deliveries_lease_idx')
      .on(t.leaseUntil)
      .where(sql`status in ('claimed', 'sending')`),
    check('reminder_deliveries_status_check', sql`${t.status} in ('claimed', 'sending', 'sent', 'failed', 'unknown')`),
  ],
);

/**
 * Mail the app could not hand over at once (the outbox folder full or unwritable, the SMTP server
 * away): kept here, sealed with the encryption key (it may hold a reset or verification link),
 * and tried again until it goes out (adapters/mail-queue.ts). A row is held by one sender at a time
 * (lease_until), so replicas never send it twice at once; it is deleted once sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** the message (to, subject, text) as JSON, sealed by the SecretBox */
    sealed: text('sealed').notNull(),
    attempts: integer('attempts').notNull().default(1),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('mail_outbox_due_idx').on(t.nextAttemptAt)],
);

/**
 * What happened that concerns an account (shared-contracts NOTIFICATION_KINDS): written by the access
 * layer in the transaction of the event itself (api/src/access/notifications.ts), with its e-mail's
 * mail_outbox row when the account wants it e-mailed. The other person is kept as the account knew
 * them then (`person_*`), never looked up again. No foreign key: the account lives in patients or
 * doctors depending on role (as for sessions).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    role: text('role').notNull(),
    accountId: uuid('account_id').notNull(),
    kind: text('kind').notNull(),
    personName: text('person_name').notNull().default(''),
    personEmail: text('person_email').notNull().default(''),
    personDob: date('person_dob', { mode: 'string' }),
    /** the record or prescription it is about */
    entityId: uuid('entity_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('notifications_account_idx').on(t.role, t.accountId, t.createdAt.desc(), t.id.desc()),
    index('notifications_unread_idx')
      .on(t.role, t.accountId)
      .where(sql`read_at is null`),
    check('notifications_role_check', sql`${t.role} in ('patient', 'doctor')`),
    check(
      'notifications_kind_check',
      sql`${t.kind} in ('request-received', 'request-accepted', 'request-declined', 'access-ended', 'new-record', 'new-prescription')`,
    ),
  ],
);

/** Per account and kind: whether the notification is also e-mailed. No row: e-mailed (the default). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    role: text('role').notNull(),
    accountId: uuid('account_id').notNull(),
    kind: text('kind').notNull(),
    email: boolean('email').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.role, t.accountId, t.kind] })],
);

/**
 * A doctor's unsent work on a long form (shared-contracts DRAFT_FORMS), kept as typed, one per
 * doctor, form and patient. It hangs on the assignment: when the doctor's access ends (the
 * assignment row goes), the database deletes the drafts with it — no patient data is kept for a
 * doctor who may no longer see the patient. Read and written only by api/src/access/drafts.ts.
 */
export const drafts = pgTable(
  'drafts',
  {
    doctorId: uuid('doctor_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    form: text('form').notNull(),
    values: jsonb('values').$type<Record<string, unknown>>().notNull(),
    step: integer('step').notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.doctorId, t.form, t.patientId] }),
    foreignKey({ columns: [t.doctorId, t.patientId], foreignColumns: [assignments.doctorId, assignments.patientId] }).onDelete(
      'cascade',
    ),
    check('drafts_form_check', sql`${t.form} in ('medical-record', 'prescription')`),
  ],
);
