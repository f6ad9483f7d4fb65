import { z } from 'zod';
import { page } from './common';

/** GET /patient/audit: who read or changed the caller's records, prescriptions and files, and when. */
export const AuditQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/**
 * What the audit log records: 'update' of a reminder is its cancelling; 'revoke' of an assignment
 * is a patient ending a doctor's access or a doctor releasing a patient.
 */
export const AUDIT_ACTIONS = ['read', 'create', 'update', 'list', 'summarize', 'revoke'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
/**
 * What it records it of: a reminder is one a doctor schedules for the patient; an assignment is
 * the doctor–patient connection (its entityId is the doctor's id, its patient the patient).
 */
export const AUDIT_ENTITIES = ['medical_record', 'prescription', 'medical_file', 'reminder', 'assignment'] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

export const AuditEntry = z.object({
  at: z.string(),
  actorName: z.string(),
  actorRole: z.enum(['patient', 'doctor']),
  action: z.enum(AUDIT_ACTIONS),
  entity: z.enum(AUDIT_ENTITIES),
  entityId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = page(AuditEntry);
