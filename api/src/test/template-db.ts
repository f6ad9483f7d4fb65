import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { LockFile } from '../adapters/lockfile';
import { openDatabase } from '../adapters/db';
import { MIGRATIONS_DIR } from '../config';

/*
 * Migrating a fresh database for every test file costs seconds on each backend. Instead the
 * migrations run once per migrations folder into a template, and each test file gets a copy:
 * PostgreSQL `CREATE DATABASE … TEMPLATE careloop_template_<hash>`, PGlite a copy of a closed,
 * migrated data directory. The hash names the template, so a changed migration makes a new one; the
 * first test process to need it builds it under a lock while the others wait. An empty PGlite
 * database (`migrate: false`) is copied from a template too: PGlite's initdb costs seconds as well.
 */

/** sha256 of every file under the migrations folder (names and contents), 12 hex digits. */
export function migrationsHash(folder = MIGRATIONS_DIR): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(path.relative(folder, full)).update('\0').update(fs.readFileSync(full)).update('\0');
    }
  };
  walk(folder);
  return hash.digest('hex').slice(0, 12);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A migrated PGlite data directory (its `db` folder, closed) for this migrations folder and PGlite
 * version: built once, then only copied. Returns the path of that `db` folder. `{ migrated: false }`:
 * a fresh one with no migrations run (for PGlite, making one is an initdb of several seconds).
 */
export async function pgliteTemplate({ migrated = true } = {}): Promise<string> {
  // The data directory's format belongs to the PGlite release that wrote it.
  // (package.json is not in its `exports`: read from next to its resolved dist/ entry.)
  const pglitePackage = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const pgliteVersion = (JSON.parse(fs.readFileSync(pglitePackage, 'utf8')) as { version: string }).version;
  const home = path.join(os.tmpdir(), `careloop-template-${migrated ? migrationsHash() : 'empty'}-pglite-${pgliteVersion}`);
  const ready = path.join(home, 'db');
  if (fs.existsSync(ready)) return ready;
  fs.mkdirSync(path.dirname(home), { recursive: true });
  // One builder at a time; a lock left by a killed process is taken over (LockFile).
  const lockPath = `${home}.lock`;
  let lock: LockFile | undefined;
  while (!lock) {
    try {
      lock = LockFile.acquire(lockPath);
    } catch (err) {
      if (!/already in use/.test((err as Error).message)) throw err;
      await sleep(100);
    }
  }
  try {
    if (fs.existsSync(ready)) return ready; // built by the process we waited for
    // Built aside and renamed into place: `ready` exists only once it is complete.
    const building = fs.mkdtempSync(`${home}.building-`);
    try {
      const adapter = await openDatabase({ dataDir: building });
      try {
        if (migrated) await adapter.migrate();
      } finally {
        await adapter.close();
      }
      fs.rmSync(path.join(building, 'db.lock'), { force: true });
      fs.renameSync(building, home);
    } finally {
      fs.rmSync(building, { recursive: true, force: true });
    }
    return ready;
  } finally {
    lock.release();
  }
}

/** Copies the PGlite template (migrated unless told) into `<dataDir>/db` (dataDir is new and empty). */
export async function copyPgliteTemplate(dataDir: string, { migrated = true } = {}): Promise<void> {
  fs.cpSync(await pgliteTemplate({ migrated }), path.join(dataDir, 'db'), { recursive: true });
}

// Any fixed number, other than the migrations' own lock (adapters/db.ts).
const TEMPLATE_LOCK_KEY = 4_711_202_502;

/**
 * The name of a migrated PostgreSQL template database for this migrations folder on the server of
 * `adminUrl`, built there once. It takes no connections, so copying it never finds it in use.
 */
export async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `careloop_template_${migrationsHash()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    // A session lock: released by the server if this process dies while building.
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      if (await exists()) return name; // built by the process we waited for
      // Built under another name and renamed: `name` exists only once it is fully migrated.
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const adapter = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
      try {
        await adapter.migrate();
      } finally {
        await adapter.close();
      }
      // PostgreSQL waits a few seconds for the closed pool's sessions to end before renaming.
      await admin.query(`alter database ${building} rename to ${name}`);
      await admin.query(`alter database ${name} with allow_connections false`);
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
    return name;
  } finally {
    await admin.end();
  }
}
