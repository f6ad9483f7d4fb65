import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@careloop/shared-contracts';
import { outboxDir } from '../../adapters/mail';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { DB_UNAVAILABLE_RETRY_AFTER_SECONDS, HttpError } from '../../lib/errors';
import { metricsAuthorized } from '../../http/metrics';

/**
 * The folders this api writes to on its own disk: the embedded database's data directory, the
 * local file store, the mail outbox (each only when in use). A full or read-only disk makes the
 * api unready, before writes start failing.
 */
export function writableFolders(deps: Pick<AppDeps, 'config' | 'db' | 'storage' | 'mailer'>): string[] {
  const { dataDir } = deps.config;
  const folders: string[] = [];
  if (deps.db.kind === 'pglite') folders.push(dataDir);
  if (deps.storage.kind === 'local') folders.push(path.join(dataDir, 'files'));
  if (deps.mailer.kind === 'outbox') folders.push(outboxDir(dataDir));
  return folders;
}

/** A tiny write, flushed to disk, then removed: throws (ENOSPC, EROFS, EACCES…) when the folder cannot take a write. */
export async function probeWrite(folder: string): Promise<void> {
  await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
  const probe = path.join(folder, `.ready-probe-${randomBytes(6).toString('hex')}`);
  try {
    const handle = await fs.promises.open(probe, 'wx', 0o600);
    try {
      await handle.write(Buffer.from('ready\n'));
      await handle.sync();
    } finally {
      await handle.close();
    }
  } finally {
    await fs.promises.rm(probe, { force: true });
  }
}

/** Why the api is not ready, or undefined when it is. */
async function notReady(deps: AppDeps, log: FastifyBaseLogger): Promise<string | undefined> {
  try {
    await deps.db.db.execute(sql`select 1`);
  } catch (err) {
    // Bounded by the pool's connection timeout (adapters/db.ts); the pool reconnects by
    // itself, so a later check answers 200 again without a restart (FAULTS.md).
    log.warn({ err }, 'health check: database query failed');
    return 'database';
  }
  for (const folder of writableFolders(deps)) {
    try {
      await probeWrite(folder);
    } catch (err) {
      log.warn({ err, folder }, 'health check: a data folder cannot be written');
      return folder;
    }
  }
  return undefined;
}

export function healthRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // No I/O: the process is up and its event loop answers.
    route(app, deps, ENDPOINTS.healthLive, async () => ({ status: 'ok' as const }));

    // For the operator's Prometheus only: off unless METRICS_TOKEN is set, then that token alone.
    route(app, deps, ENDPOINTS.metrics, async (request, reply) => {
      const token = deps.config.metricsToken;
      if (!token || !app.metrics) throw new HttpError(404, 'Not found');
      if (!metricsAuthorized(request.headers.authorization, token)) throw new HttpError(401, 'Unauthorized');
      return reply.header('content-type', app.metrics.contentType).send(await app.metrics.metrics());
    });

    for (const endpoint of [ENDPOINTS.health, ENDPOINTS.healthReady]) {
      route(app, deps, endpoint, async (request, reply) => {
        if (await notReady(deps, request.log)) {
          return reply
            .code(503)
            .header('retry-after', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS))
            .send({ status: 'unavailable' as const });
        }
        return { status: 'ok' as const };
      });
    }

    // Public: no patient data, only where the clinic is (so screens show times as the clinic reads them).
    route(app, deps, ENDPOINTS.clinic, async () => ({ timeZone: deps.config.clinicTimeZone }));
  };
}
