import { z } from 'zod';
import { page } from './common';

/** GET /patient/audit: who read or changed the caller's records, prescriptions and files, and when. */
export const AuditQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const AuditEntry = z.object({
  at: z.string(),
  actorName: z.string(),
  actorRole: z.enum(['patient', 'doctor']),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = page(AuditEntry);
