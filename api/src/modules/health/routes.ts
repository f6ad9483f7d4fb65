import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from 'shared-contracts';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { HttpError } from '../../lib/errors';

export function healthRoutes({ db }: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['health'],
          summary: 'Liveness and database reachability',
          response: { 200: z.object({ status: z.literal('ok') }), 503: ErrorResponse },
        },
      },
      async (request) => {
        try {
          await db.db.execute(sql`select 1`);
        } catch (err) {
          request.log.error({ err }, 'health check: database query failed');
          throw new HttpError(503, 'Database unavailable');
        }
        return { status: 'ok' as const };
      },
    );
  };
}
