import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from 'shared-contracts';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { DB_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../lib/errors';

export function healthRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db } = deps;
  return async (app) => {
    route(app, deps, ENDPOINTS.health, async (request, reply) => {
      try {
        await db.db.execute(sql`select 1`);
      } catch (err) {
        // Bounded by the pool's connection timeout (adapters/db.ts); the pool reconnects by
        // itself, so a later check answers 200 again without a restart (FAULTS.md).
        request.log.warn({ err }, 'health check: database query failed');
        return reply
          .code(503)
          .header('retry-after', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS))
          .send({ status: 'unavailable' as const });
      }
      return { status: 'ok' as const };
    });

    // Public: no patient data, only where the clinic is (so screens show times as the clinic reads them).
    route(app, deps, ENDPOINTS.clinic, async () => ({ timeZone: deps.config.clinicTimeZone }));
  };
}
