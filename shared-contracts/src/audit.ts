import { z } from 'zod';
import { page } from './common';

/** GET /patient/audit and GET /doctor/audit: who read or changed the caller's records, prescriptions and files, and when. */
/** Which of the rows: data access, the account's security log, or (absent) both. */
export const AuditKind = z.enum(['access', 'security']);
export type AuditKind = z.infer<typeof AuditKind>;
export const AuditQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  kind: AuditKind.optional(),
});
/**
 * What the audit log records: 'update' of a reminder is its cancelling; 'revoke' of an assignment
 * is a patient ending a doctor's access or a doctor releasing a patient; 'override' is a doctor
 * proceeding past a stop alert of the prescribing check, with the reason kept in `detail`;
 * 'denied' is a request for that patient's data the access layer refused (the caller is kept).
 */
export const DATA_ACTIONS = ['read', 'create', 'update', 'list', 'summarize', 'revoke', 'override', 'denied'] as const;
/**
 * The security log: events of an account itself (entity 'account', entityId and actor the account).
 * 'sign-in-failed' is a wrong password for an existing account; an unknown e-mail records nothing.
 * 'email-verify' is the account proving its e-mail address with the link mailed to it.
 * 'sessions-ended' is the owner signing out another session or all others; 'recovery-codes' is a
 * new set of recovery codes; 'takeover' is the owner of the address taking over an account an
 * unverified holder had set up (everything that holder set is wiped). 'registration-verified' is an
 * operator verifying a doctor's professional registration (`npm run operator -- verify-doctor`).
 */
export const SECURITY_ACTIONS = [
  'sign-in',
  'sign-in-failed',
  'sign-out',
  '2fa-on',
  '2fa-off',
  'password-change',
  'email-change',
  'password-reset',
  'email-verify',
  'sessions-ended',
  'recovery-code-sign-in',
  'recovery-codes',
  'email-change-withdrawn',
  'takeover',
  'registration-verified',
] as const;
export type SecurityAction = (typeof SECURITY_ACTIONS)[number];
export const AUDIT_ACTIONS = [...DATA_ACTIONS, ...SECURITY_ACTIONS] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
/**
 * What it records it of: a reminder is one a doctor schedules for the patient; an assignment is
 * the doctor–patient connection (its entityId is the doctor's id, its patient the patient).
 */
export const AUDIT_ENTITIES = [
  'medical_record',
  'prescription',
  'medical_file',
  'reminder',
  'assignment',
  'account',
  'allergy_intolerance',
  'pregnancy',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

export const AuditEntry = z.object({
  at: z.string(),
  actorName: z.string(),
  actorRole: z.enum(['patient', 'doctor']),
  action: z.enum(AUDIT_ACTIONS),
  entity: z.enum(AUDIT_ENTITIES),
  entityId: z.string().nullable(),
  /** 'security' for the account's own events (sign-in, 2FA, password…), 'access' for data access */
  kind: AuditKind,
  /** the client address of the viewer's own events only (null on rows of others: their address is theirs) */
  ip: z.string().nullable(),
  /** an 'override' row's reason and the stop alerts' substances ("Reason: … (stop: penicillin)"); null otherwise */
  detail: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = page(AuditEntry);
