import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { DB_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../lib/errors';

export function healthRoutes({ db }: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['health'],
          summary: 'Liveness and database reachability',
          response: {
            200: z.object({ status: z.literal('ok') }),
            503: z.object({ status: z.literal('unavailable') }),
          },
        },
      },
      async (request, reply) => {
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
      },
    );
  };
}
