import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditEntity, Role, SecurityAction } from '@careloop/shared-contracts';
import type { Clock } from '../adapters/clock';
import type { Queryable } from '../adapters/db';
import { auditLog } from '../db/schema';

// the lists are the contract's (shared-contracts audit.ts): the patient's access history reads them
export type { AuditAction, AuditEntity };

/** Who acts, when and from where: the part of an audit row every handler takes from its request. */
export interface AuditActor {
  actorId: string;
  actorRole: Role;
  at: Date;
  ip: string | null;
}

export interface AuditEntry extends AuditActor {
  action: AuditAction;
  entity: AuditEntity;
  /** null for a list */
  entityId?: string | null;
  /** the patient concerned (a list writes one row per patient it returned; older rows may be null) */
  patientId?: string | null;
  /** what the row alone cannot say: an override's reason */
  detail?: string | null;
}

/** The actor of a guarded request: its session, the injected clock's now, the client IP. */
export function actorOf(request: FastifyRequest, clock: Clock): AuditActor {
  if (!request.auth) throw new Error('route is missing an auth guard');
  return { actorId: request.auth.accountId, actorRole: request.auth.role, at: clock.now(), ip: request.ip ?? null };
}

/**
 * Appends one row to audit_log (append-only: a trigger refuses UPDATE, DELETE and TRUNCATE).
 * Pass the transaction of the write it records, so the row and the write commit together.
 */
const auditRow = (entry: AuditEntry) => ({
  at: entry.at,
  actorId: entry.actorId,
  actorRole: entry.actorRole,
  action: entry.action,
  entity: entry.entity,
  entityId: entry.entityId ?? null,
  patientId: entry.patientId ?? null,
  ip: entry.ip,
  detail: entry.detail ?? null,
});

export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(auditRow(entry));
}

/**
 * audit_log rows written by `select` (its columns in the order given), as a data-modifying CTE of a
 * statement that reads or writes what they record: the rows and that work succeed or fail together.
 */
export function auditInsert(columns: (keyof typeof auditLog.$inferInsert)[], select: SQL): SQL {
  const names = columns.map((c) => sql.identifier(auditLog[c].name));
  return sql`insert into ${auditLog} (${sql.join(names, sql`, `)}) ${select} returning 1 as one`;
}

/** Several rows in ONE statement (a list's row per patient): all are written, or none and it throws. */
export async function auditAll(db: Queryable, entries: AuditEntry[]): Promise<void> {
  if (entries.length) await db.insert(auditLog).values(entries.map(auditRow));
}

/**
 * A doctor's own profile (GET /doctor/me) lists their patients' names, birth dates and e-mails: a
 * 'list' row per patient, as every list of patient data writes.
 */
export async function auditPatientsListed(db: Queryable, actor: AuditActor, patientIds: string[]): Promise<void> {
  await auditAll(
    db,
    patientIds.map((patientId) => ({ ...actor, action: 'list', entity: 'account', patientId })),
  );
}

/**
 * A refused request for a patient's data (lib/errors AccessDenied): who asked, for which patient,
 * by which endpoint. Written on its own, since the refusal rolls back the request's transaction.
 */
export async function auditDenied(db: Queryable, actor: AuditActor, patientId: string, endpoint: string): Promise<void> {
  await audit(db, { ...actor, action: 'denied', entity: 'account', patientId, detail: endpoint });
}

/**
 * Appends one row to the account's security log (sign-in, 2FA, password… — entity 'account', the
 * account as actor and subject). Pass the transaction of the change it records. Never the typed
 * password or e-mail: only the account's id, role and the client address.
 */
export async function securityEvent(
  db: Queryable,
  event: { role: Role; accountId: string; action: SecurityAction; at: Date; ip: string | null },
): Promise<void> {
  await audit(db, {
    actorId: event.accountId,
    actorRole: event.role,
    at: event.at,
    ip: event.ip,
    action: event.action,
    entity: 'account',
    entityId: event.accountId,
  });
}

/**
 * Whether the account signed in from this client address since `since` (its security log): the
 * login throttle does not pace an address its owner is known to use.
 */
export async function signedInFrom(db: Queryable, role: Role, accountId: string, ip: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.actorId, accountId),
        eq(auditLog.actorRole, role),
        eq(auditLog.action, 'sign-in'),
        eq(auditLog.entity, 'account'),
        eq(auditLog.ip, ip),
        gte(auditLog.at, since),
      ),
    )
    .limit(1);
  return row !== undefined;
}
