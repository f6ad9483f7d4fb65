import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { Pool } from 'pg';
import { MIGRATIONS_DIR } from '../config';
import * as schema from '../db/schema';
import type { Db, Queryable } from '../db/queryable';
import { OWNER_ONLY_DIR, restrictToOwner } from '../lib/owner-only';
import { LockFile } from './lockfile';
import { PgliteWorker } from './pglite-worker';

export type { Db, Queryable, Tx } from '../db/queryable';

/** Rows of a raw SQL query; both drivers answer `{ rows }`, which the shared type leaves unknown. */
export async function selectRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const builtOnce = new WeakMap<Queryable, Map<string, unknown>>();

/**
 * A statement of a hot path, built ONCE per database handle with placeholders and sent NAMED: drizzle
 * does not rebuild its SQL on every request, and PostgreSQL parses it once per connection and may
 * keep a generic plan (PGlite's worker keeps its own named statement per text). On a transaction handle it is built per
 * transaction, and runs on that transaction's connection.
 */
export function preparedOnce<T>(db: Queryable, name: string, build: () => T): T {
  let byName = builtOnce.get(db);
  if (!byName) builtOnce.set(db, (byName = new Map()));
  if (!byName.has(name)) byName.set(name, build());
  return byName.get(name) as T;
}

/** Raw SQL on a connection (pg-boss's `db` option); rows as the driver parses them. */
export interface SqlExecutor {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are whatever shape the caller's SQL returns
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface DbAdapter {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** PostgreSQL: the URL, for components that open their own pool (pg-boss). */
  readonly connectionString?: string;
  /**
   * PGlite: raw SQL on the app's one embedded connection (pg-boss cannot open its own: PGlite
   * is in-process and single-connection). Parameterless text may hold several statements.
   */
  readonly executor?: SqlExecutor;
  /**
   * Database operations waiting or running now (PGlite: its worker's queue; PostgreSQL: requests
   * waiting for a pooled connection). Past DB_MAX_QUEUE the api answers 503 (app.ts).
   */
  queueDepth(): number;
  /** PGlite: a consistent gzipped tar of the open database (backups, ops/backup.ts). */
  dumpDataDir?(): Promise<Uint8Array>;
  /** Applies pending migrations; safe to call from several replicas at once and more than once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

// Any fixed number: every replica must use the same one so their migrations run one at a time.
const MIGRATION_LOCK_KEY = 4_711_202_501;

export interface OpenDbOptions {
  databaseUrl?: string;
  /** Used when databaseUrl is unset: the embedded database lives in `<dataDir>/db`. */
  dataDir: string;
  migrationsFolder?: string;
}

export async function openDatabase(opts: OpenDbOptions): Promise<DbAdapter> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts) : openPglite(opts.dataDir, opts);
}

async function openPglite(dataDir: string, opts: OpenDbOptions): Promise<DbAdapter> {
  const dbDir = path.join(dataDir, 'db');
  // PGlite creates only the last directory level itself.
  fs.mkdirSync(dataDir, { recursive: true, mode: OWNER_ONLY_DIR });
  const lock = LockFile.acquire(path.join(dataDir, 'db.lock'));
  let client: PgliteWorker;
  try {
    // In a worker thread (pglite-worker.ts), so its queries do not block the requests' event loop.
    client = await PgliteWorker.open(dbDir);
    // PGlite sets modes itself (0666 for a new cluster's files, 0644 for its relation cache
    // files), past the umask: tightened here, and again at close.
    restrictToOwner(dbDir);
  } catch (err) {
    lock.release();
    throw err;
  }
  // Drizzle's own PGlite driver on the worker's client, which answers query/exec/transaction as
  // PGlite does (not pglite's node-postgres shim, which misbehaves after errors).
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
  let closed = false;
  const executor: SqlExecutor = {
    async executeSql(text, values) {
      if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
      // exec() runs several statements in one call (pg-boss's BEGIN; …; COMMIT; scripts) and,
      // like every call to the worker, never interleaves with an open drizzle transaction. The rows
      // of EVERY statement, as node-postgres gives them: pg-boss reads a RETURNING or a lock row in
      // the middle of a script (its background commands' claim), not only the last statement's.
      const results = await client.exec(text);
      return { rows: results.flatMap((r) => r.rows ?? []) };
    },
  };
  return {
    kind: 'pglite',
    db,
    executor,
    queueDepth: () => client.queueDepth,
    dumpDataDir: () => client.dumpDataDir(),
    async migrate() {
      const migrationsFolder = opts.migrationsFolder ?? MIGRATIONS_DIR;
      // One connection only, so the advisory lock is held by the session the migrator uses.
      await client.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
      try {
        await migratePglite(db as never, { migrationsFolder });
      } finally {
        await client.query(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
        restrictToOwner(dbDir);
      } finally {
        lock.release();
      }
    },
  };
}

/**
 * node-postgres pool settings for an unreliable network or a restarting server (FAULTS.md; pg-boss
 * uses them for its own pool too). No connection is kept forever: a broken one is dropped by the
 * pool (it never goes back to the idle list) and the next query opens a fresh one, so the api
 * recovers by itself once PostgreSQL is back.
 */
export const PG_POOL_OPTIONS = {
  /** A connect attempt that does not complete (server gone, packets dropped) fails after this: a 503, not a hang. */
  connectionTimeoutMillis: 5000,
  /** Idle connections are closed after this, so stale ones do not linger after an outage. */
  idleTimeoutMillis: 30_000,
  /** TCP keepalive: a connection whose peer vanished (no FIN/RST) is detected and dropped. */
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} as const;

async function openPostgres(url: string, opts: OpenDbOptions): Promise<DbAdapter> {
  const pool = new Pool({ connectionString: url, max: 10, ...PG_POOL_OPTIONS });
  // An idle client losing its connection (server restart, network cut) must not crash the
  // process: the pool discards it and the next query connects anew.
  pool.on('error', () => undefined);
  // A checked-out one (a transaction between statements) emits 'error' with no pool listener attached:
  // unhandled, that would end the process. Its transaction fails on its own; the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
  try {
    await db.execute(sql`select 1`); // fail fast on a bad URL
  } catch (err) {
    await pool.end();
    throw err;
  }
  let closed = false;
  return {
    kind: 'postgres',
    db,
    connectionString: url,
    queueDepth: () => pool.waitingCount,
    async migrate() {
      const migrationsFolder = opts.migrationsFolder ?? MIGRATIONS_DIR;
      // Session-level advisory lock: it must be taken and released on the very connection
      // the migrator runs on, so pin one pooled client for the whole migration.
      const conn = await pool.connect();
      let failed: Error | undefined;
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          await migrateNodePg(drizzleNodePg({ client: conn, schema }), { migrationsFolder });
        } finally {
          await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        }
      } catch (err) {
        failed = err as Error;
        throw err;
      } finally {
        conn.release(failed); // after a failure the connection is destroyed, never reused
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
