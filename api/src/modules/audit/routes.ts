import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from 'shared-contracts';
import type { AppDeps } from '../../deps';
import { auditLog, doctors, patients } from '../../db/schema';
import { route } from '../../http/route';

/**
 * GET /patient/audit: a patient sees who read or changed their records, prescriptions and files,
 * and when — from the append-only audit_log, newest first.
 */
export function auditRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db } = deps;
  return async (app) => {
    route(app, deps, ENDPOINTS.accessHistory, async (request) => {
      const patientId = request.auth!.accountId;
      const { page, limit } = request.query;
      const mine = eq(auditLog.patientId, patientId);
      const [rows, [{ total }]] = await Promise.all([
        db.db
          .select({
            at: auditLog.at,
            actorRole: auditLog.actorRole,
            action: auditLog.action,
            entity: auditLog.entity,
            entityId: auditLog.entityId,
            actorName: sql<string>`coalesce(${doctors.name}, ${patients.name}, 'Unknown')`,
          })
          .from(auditLog)
          .leftJoin(doctors, and(eq(auditLog.actorRole, 'doctor'), eq(doctors.id, auditLog.actorId)))
          .leftJoin(patients, and(eq(auditLog.actorRole, 'patient'), eq(patients.id, auditLog.actorId)))
          .where(mine)
          .orderBy(desc(auditLog.at), desc(auditLog.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.db
          .select({ total: count().mapWith(Number) })
          .from(auditLog)
          .where(mine),
      ]);
      return {
        page,
        limit,
        total,
        items: rows.map((r) => ({ ...r, at: r.at.toISOString(), actorRole: r.actorRole as 'patient' | 'doctor' })),
      };
    });
  };
}
