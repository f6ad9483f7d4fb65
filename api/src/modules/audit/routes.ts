import { and, count, desc, eq, inArray, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, SECURITY_ACTIONS, type AuditKind, type Role, type SecurityAction } from '@careloop/shared-contracts';
import type { AppDeps } from '../../deps';
import { auditLog, doctors, patients } from '../../db/schema';
import { route } from '../../http/route';

/**
 * GET /patient/audit: a patient sees who read or changed their records, prescriptions and files,
 * and their own account's security log (sign-in, 2FA, password…) — from the append-only
 * audit_log, newest first. GET /doctor/audit: a doctor's own security log, every end of one of
 * their assignments (by them or by the patient), so a doctor learns that their access ended, and
 * their overrides of stop alerts with the reasons given.
 */
const isSecurityAction = (action: string): action is SecurityAction => (SECURITY_ACTIONS as readonly string[]).includes(action);

export function auditRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db } = deps;

  /** The account's own security events: entity 'account' with the account as subject. */
  const securityOf = (role: Role, accountId: string) =>
    and(
      eq(auditLog.entity, 'account'),
      eq(auditLog.entityId, accountId),
      eq(auditLog.actorRole, role),
      inArray(auditLog.action, [...SECURITY_ACTIONS]),
    )!;

  /** Narrowed to one kind of row, the same rule as each row's `kind` below (its action). */
  const ofKind = (where: SQL, kind: AuditKind | undefined): SQL =>
    kind === undefined
      ? where
      : and(where, (kind === 'security' ? inArray : notInArray)(auditLog.action, [...SECURITY_ACTIONS]))!;

  /**
   * A page of rows as `viewer` sees them. A client address is shown only on the viewer's own rows:
   * a patient never sees a doctor's address on a routine access row, a doctor never the address a
   * patient revoked from.
   */
  async function pageOf(viewer: { role: Role; accountId: string }, where: SQL, page: number, limit: number) {
    const [rows, [{ total }]] = await Promise.all([
      db.db
        .select({
          at: auditLog.at,
          actorId: auditLog.actorId,
          actorRole: auditLog.actorRole,
          action: auditLog.action,
          entity: auditLog.entity,
          entityId: auditLog.entityId,
          ip: auditLog.ip,
          detail: auditLog.detail,
          actorName: sql<string>`coalesce(${doctors.name}, ${patients.name}, 'Unknown')`,
        })
        .from(auditLog)
        .leftJoin(doctors, and(eq(auditLog.actorRole, 'doctor'), eq(doctors.id, auditLog.actorId)))
        .leftJoin(patients, and(eq(auditLog.actorRole, 'patient'), eq(patients.id, auditLog.actorId)))
        .where(where)
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(limit)
        .offset((page - 1) * limit),
      db.db
        .select({ total: count().mapWith(Number) })
        .from(auditLog)
        .where(where),
    ]);
    return {
      page,
      limit,
      total,
      items: rows.map(({ actorId, ...r }) => ({
        ...r,
        ip: actorId === viewer.accountId && r.actorRole === viewer.role ? r.ip : null,
        at: r.at.toISOString(),
        actorRole: r.actorRole as Role,
        // a read of the profile is entity 'account' too: the action says which log a row belongs to
        kind: isSecurityAction(r.action) ? ('security' as const) : ('access' as const),
      })),
    };
  }

  return async (app) => {
    route(app, deps, ENDPOINTS.accessHistory, async (request) => {
      const patientId = request.auth!.accountId;
      const { page, limit, kind } = request.query;
      const viewer = { role: 'patient' as const, accountId: patientId };
      return pageOf(viewer, ofKind(or(eq(auditLog.patientId, patientId), securityOf('patient', patientId))!, kind), page, limit);
    });

    route(app, deps, ENDPOINTS.doctorAccessHistory, async (request) => {
      const { page, limit, kind } = request.query;
      const doctorId = request.auth!.accountId;
      // revokeAssignment writes the doctor's id as the assignment row's entity_id, whoever revoked.
      const assignmentEnded = and(
        eq(auditLog.entity, 'assignment'),
        eq(auditLog.action, 'revoke'),
        eq(auditLog.entityId, doctorId),
      )!;
      // The doctor's own overrides of stop alerts, with their reasons: their record of the decision.
      const overrides = and(eq(auditLog.action, 'override'), eq(auditLog.actorId, doctorId), eq(auditLog.actorRole, 'doctor'))!;
      const viewer = { role: 'doctor' as const, accountId: doctorId };
      return pageOf(viewer, ofKind(or(securityOf('doctor', doctorId), assignmentEnded, overrides)!, kind), page, limit);
    });
  };
}
