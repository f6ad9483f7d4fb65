import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Client } from 'pg';
import { buildApp } from '../app';
import { ManualClock } from '../adapters/clock';
import { openDatabase, selectRows, type DbAdapter } from '../adapters/db';
import { loadConfig, type Config } from '../config';

export type Backend = 'pglite' | 'postgres';

/** Every db-touching suite runs on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set. */
export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDb {
  adapter: DbAdapter;
  /** Opens another adapter on the same database (a second replica, or a restart). */
  reopen(): Promise<DbAdapter>;
  dataDir?: string;
  cleanup(): Promise<void>;
}

/** A fresh, migrated database: a temp dir for PGlite, a new database on the server for PostgreSQL. */
export async function createTestDb(backend: Backend, { migrate = true } = {}): Promise<TestDb> {
  if (backend === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-api-test-'));
    const adapter = await openDatabase({ dataDir });
    if (migrate) await adapter.migrate();
    return {
      adapter,
      dataDir,
      reopen: () => openDatabase({ dataDir }),
      async cleanup() {
        await adapter.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  // One database per test file, so parallel files never see each other's rows.
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `careloop_test_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const adapter = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  if (migrate) await adapter.migrate();
  const opened: DbAdapter[] = [adapter];
  return {
    adapter,
    async reopen() {
      const a = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
      opened.push(a);
      return a;
    },
    async cleanup() {
      for (const a of opened) await a.close();
      await withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Low scrypt cost and no logs: the suite stays fast and quiet. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    PASSWORD_HASH_COST: '10',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    DATA_DIR: os.tmpdir(),
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
  db: DbAdapter;
}

export async function createTestApp(
  db: DbAdapter,
  env: Record<string, string> = {},
  /** Adds routes before the app is sealed (e.g. one that throws). */
  extend?: (app: FastifyInstance) => void,
  onLogLine?: (line: string) => void,
): Promise<TestApp> {
  const clock = new ManualClock(new Date());
  const app = await buildApp(
    { db, clock, config: testConfig(env) },
    onLogLine ? { logStream: { write: onLogLine } } : {},
  );
  extend?.(app);
  await app.ready();
  return { app, clock, db };
}

let seq = 0;
/** A unique e-mail per call, so tests sharing one database never collide. */
export function uniqueEmail(prefix = 'user'): string {
  seq += 1;
  return `${prefix}.${process.pid}.${seq}.${randomBytes(3).toString('hex')}@example.com`;
}

export const PASSWORD = 'correct horse battery';

export function json<T = any>(res: LightMyRequestResponse): T {
  return res.json() as T;
}

export async function countRows(db: DbAdapter, table: 'patients' | 'doctors' | 'sessions' | 'login_failures'): Promise<number> {
  const [row] = await selectRows<{ n: number | string }>(db.db, sql.raw(`select count(*)::int as n from ${table}`));
  return Number(row.n);
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

export async function signup(app: FastifyInstance, role: 'patient' | 'doctor', body: Record<string, unknown> = {}) {
  const email = (body.email as string) ?? uniqueEmail(role);
  const res = await app.inject({
    method: 'POST',
    url: `/${role}/signup`,
    payload: { name: `Test ${role}`, email, password: PASSWORD, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  return { email, token: res.json().token as string };
}
