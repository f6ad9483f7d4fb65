// Child processes, servers, browsers and databases the bench starts — and their clean-up on any
// exit (normal end, thrown error, SIGINT/SIGTERM). Everything listens on 127.0.0.1 only.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH = join(ROOT, 'bench');
export const HOST = '127.0.0.1';
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Clean-up actions, run newest first, once. */
const cleanups = [];
let cleaning = null;
export function onCleanup(fn) {
  cleanups.push(fn);
  return () => {
    const i = cleanups.indexOf(fn);
    if (i >= 0) cleanups.splice(i, 1);
  };
}
export function cleanupAll() {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const fn = cleanups.pop();
      try {
        await fn();
      } catch (err) {
        console.error(`bench: clean-up step failed: ${err?.message ?? err}`);
      }
    }
  })();
  return cleaning;
}
/** Children still alive when the process exits anyway get a SIGKILL (synchronous, last resort). */
const liveChildren = new Set();
process.on('exit', () => {
  for (const child of liveChildren) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}, cleaning up…`);
    const hard = setTimeout(() => process.exit(130), 15_000);
    hard.unref();
    cleanupAll().finally(() => process.exit(130));
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `careloop-bench-${prefix}-`));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A port that is free right now on 127.0.0.1, from the preferred one upwards (bounded). */
export async function freePort(preferred) {
  for (let p = preferred; p < preferred + 50; p++) {
    const ok = await new Promise((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(p, HOST, () => s.close(() => resolve(true)));
    });
    if (ok) return p;
  }
  throw new Error(`no free port in ${preferred}…${preferred + 49}`);
}

/**
 * Spawns `node <script>` (never through a shell, so signals reach it). Keeps the last 8 KB of its
 * output for error messages. Returns { child, stderr(), stop() }.
 */
export function spawnNode(script, args, { env, cwd = ROOT, name = script } = {}) {
  const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // stdout (the api's JSON log) and stderr, interleaved: the last 8 KB, for error messages.
  let err = '';
  const keep = (d) => {
    err = (err + d.toString()).slice(-8192);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  liveChildren.add(child);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  exited.then(() => liveChildren.delete(child));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 8000);
    await exited;
    clearTimeout(t);
  };
  const remove = onCleanup(stop);
  return {
    child,
    name,
    exited,
    stderr: () => err,
    async stop() {
      remove();
      await stop();
    },
  };
}

/** Polls url until it answers 2xx (bounded: timeoutMs). */
export async function waitHealthy(proc, url, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited with ${proc.child.exitCode}:\n${proc.stderr()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(150);
  }
  await proc.stop();
  throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs} ms:\n${proc.stderr()}`);
}

/** api base URL → the folder its mail is written to (no SMTP here): signup reads its verification link. */
export const OUTBOXES = new Map();
/** api base URL → its database settings: signup verifies a doctor's registration there (the operator command). */
export const API_DATABASES = new Map();

/**
 * The BUILT api (`node api/dist/server.js`), PGlite in dataDir unless databaseUrl is given.
 * Fast password hashing for seeding, a login/signup rate limit that never trips, warn logs.
 */
const KEYS = new Map();
function keysFor(data) {
  if (!KEYS.has(data))
    KEYS.set(data, { ENCRYPTION_KEY: randomBytes(32).toString('base64'), FILES_SIGNING_KEY: randomBytes(32).toString('base64') });
  return KEYS.get(data);
}

export async function startApi({ port, dataDir, databaseUrl, webOrigins = [] }) {
  const env = {
    ...process.env,
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
    // Seeding: the reminder sweep row schedules 1,000 reminders from one doctor at once.
    REMINDERS_PER_DOCTOR_PER_HOUR: '100000',
    PASSWORD_HASH_COST: '12',
    WEB_ORIGINS: webOrigins.length ? webOrigins.join(',') : `http://${HOST}:1`,
    WEB_ORIGIN: webOrigins[0] ?? `http://${HOST}:1`,
    API_PUBLIC_URL: `http://${HOST}:${port}`,
    // Set so a PostgreSQL run does not warn about per-replica key files; the same ones when the api
    // is started again on the same data (the two-factor secrets are sealed with ENCRYPTION_KEY).
    ...keysFor(databaseUrl || dataDir),
  };
  const proc = spawnNode(join(ROOT, 'api/dist/server.js'), [], {
    env,
    name: `api(${databaseUrl ? 'postgres' : 'pglite'}:${port})`,
  });
  await waitHealthy(proc, `http://${HOST}:${port}/health`, 90_000);
  OUTBOXES.set(`http://${HOST}:${port}`, join(dataDir, 'outbox'));
  API_DATABASES.set(`http://${HOST}:${port}`, { DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' });
  return { ...proc, url: `http://${HOST}:${port}` };
}

// ---- PostgreSQL: a database of our own, dropped at the end ----------------------------------

export async function pgClient(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

export function dbUrl(name) {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function pgAvailable() {
  try {
    const c = await pgClient(PG_ADMIN_URL);
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export async function createDatabase(name) {
  if (!/^careloop_bench_[a-z0-9_]+$/.test(name)) throw new Error(`refusing database name ${name}`);
  const admin = await pgClient(PG_ADMIN_URL);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const drop = async () => {
    const c = await pgClient(PG_ADMIN_URL);
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  };
  const remove = onCleanup(drop);
  return {
    url: dbUrl(name),
    async drop() {
      remove();
      await drop();
    },
  };
}
