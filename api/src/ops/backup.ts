import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import type { Config } from '../config';
import { openDatabase } from '../adapters/db';
import { heldByAnotherProcess } from '../adapters/lockfile';
import {
  appVersion,
  KEY_ENV,
  KEY_FILES,
  keyFingerprint,
  knownMigrations,
  MANIFEST,
  readSnapshotFacts,
  sha256,
  sha256File,
  type BackupManifest,
  type KeyEntry,
  type SnapshotFacts,
} from './manifest';
import { requestSnapshot } from './snapshot-socket';

/*
 * One backup = one folder: the database snapshot, every stored file that snapshot references, the
 * key files, and manifest.json (written last). The database is snapshotted FIRST and the files
 * are then copied by the list read from that very snapshot: stored files never change or go away,
 * so every file row in the backup has its bytes in the backup (a file stored after the snapshot is
 * simply not in it, and neither is its row).
 */

export type BackupConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'encryptionKey' | 'files' | 'clinicTimeZone'>;

export interface BackupResult {
  folder: string;
  manifest: BackupManifest;
}

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export async function takeBackup(
  config: BackupConfig,
  folder: string,
  log: (line: string) => void = () => undefined,
): Promise<BackupResult> {
  const target = path.resolve(folder);
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0) {
    throw new Error(`${target} is not empty: a backup goes into a new or empty folder`);
  }
  fs.mkdirSync(target, { recursive: true, mode: DIR_MODE });
  const takenAt = new Date();

  const snapshot = config.databaseUrl
    ? await snapshotPostgres(config.databaseUrl, target)
    : await snapshotPglite(config.dataDir, target);
  log(`database snapshot: ${snapshot.file} (${snapshot.bytes} bytes)`);

  const files = await copyFiles(config, snapshot.facts.storedFileKeys, target);
  if (files.store === 'local') log(`files: ${files.entries.length} copied`);
  if (files.missing.length > 0) log(`files MISSING from the store: ${files.missing.join(', ')}`);

  const keys = {
    encryption: copyKey(config.encryptionKey, 'encryption', config.dataDir, target),
    filesSigning: copyKey(config.files.signingKey, 'filesSigning', config.dataDir, target),
  };

  const migrations = knownMigrations();
  const manifest: BackupManifest = {
    format: 'careloop-backup/1',
    takenAt: takenAt.toISOString(),
    app: { version: appVersion() },
    schema: {
      latestMigration: migrations[snapshot.facts.appliedMigrations - 1] ?? 'none',
      appliedMigrations: snapshot.facts.appliedMigrations,
    },
    database: {
      kind: config.databaseUrl ? 'postgres' : 'pglite',
      file: snapshot.file,
      bytes: snapshot.bytes,
      sha256: snapshot.sha256,
    },
    rowCounts: snapshot.facts.rowCounts,
    files,
    keys,
  };
  const tmp = path.join(target, `${MANIFEST}.tmp`);
  fs.writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`, { mode: FILE_MODE });
  fs.renameSync(tmp, path.join(target, MANIFEST));
  return { folder: target, manifest };
}

interface Snapshot {
  file: string;
  bytes: number;
  sha256: string;
  facts: SnapshotFacts;
}

/**
 * PGlite: dumpDataDir of the open database. If a running api holds the database, it takes the
 * snapshot itself (ops/snapshot-socket.ts); otherwise this process opens the database (taking the
 * lock, so no api can start meanwhile) and takes it.
 */
async function snapshotPglite(dataDir: string, target: string): Promise<Snapshot> {
  const file = 'database.tar.gz';
  const out = path.join(target, file);
  if (!fs.existsSync(path.join(dataDir, 'db'))) throw new Error(`There is no embedded database in ${dataDir}/db`);
  if (heldByAnotherProcess(path.join(dataDir, 'db.lock'))) {
    await requestSnapshot(dataDir, out);
  } else {
    const db = await openDatabase({ dataDir });
    try {
      fs.writeFileSync(out, await db.dumpDataDir!(), { mode: FILE_MODE, flag: 'wx' });
    } finally {
      await db.close();
    }
  }
  const { sha256, bytes } = await sha256File(out);
  // The facts are read from the snapshot itself, opened in memory: they describe exactly what was saved.
  const copy = await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(out)]) });
  try {
    const facts = await readSnapshotFacts(async <T>(text: string) => (await copy.query<T>(text)).rows);
    return { file, bytes, sha256, facts };
  } finally {
    await copy.close();
  }
}

/**
 * PostgreSQL: `pg_dump -Fc` on a snapshot exported by a read-only REPEATABLE READ transaction,
 * which also reads the row counts and file keys: the dump, the counts and the file list are the
 * same moment of the database.
 */
async function snapshotPostgres(url: string, target: string): Promise<Snapshot> {
  const file = 'database.pgdump';
  const out = path.join(target, file);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const facts = await readSnapshotFacts(async <T>(text: string) => (await client.query(text)).rows as T[]);
    await run('pg_dump', ['--format=custom', `--snapshot=${rows[0].id}`, `--file=${out}`, `--dbname=${url}`]);
    await client.query('commit');
    fs.chmodSync(out, FILE_MODE);
    const { sha256, bytes } = await sha256File(out);
    return { file, bytes, sha256, facts };
  } finally {
    await client.end();
  }
}

/** Runs a PostgreSQL client tool; its stderr is part of the error when it fails. */
export function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', (err) =>
      reject(
        new Error(`${command} could not be run (${err.message}); install the PostgreSQL client tools of your server's version`),
      ),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

async function copyFiles(config: BackupConfig, keys: string[], target: string): Promise<BackupManifest['files']> {
  if (config.files.s3) {
    // The bucket is not copied: S3 keeps its objects (use versioning / replication, docs/backup-and-restore.md).
    return { store: 's3', entries: keys.map((key) => ({ key })), missing: [] };
  }
  const from = path.join(config.dataDir, 'files');
  const to = path.join(target, 'files');
  const entries: BackupManifest['files']['entries'] = [];
  const missing: string[] = [];
  for (const key of keys) {
    const src = path.join(from, key);
    if (!fs.existsSync(src)) {
      missing.push(key);
      continue;
    }
    const dst = path.join(to, key);
    fs.mkdirSync(path.dirname(dst), { recursive: true, mode: DIR_MODE });
    fs.copyFileSync(src, dst, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(dst, FILE_MODE);
    entries.push({ key, ...(await sha256File(dst)) });
  }
  return { store: 'local', entries, missing };
}

function copyKey(fromEnv: string | undefined, which: keyof typeof KEY_FILES, dataDir: string, target: string): KeyEntry {
  if (fromEnv) return { source: 'env', envName: KEY_ENV[which], fingerprint: keyFingerprint(fromEnv) };
  const src = path.join(dataDir, KEY_FILES[which]);
  if (!fs.existsSync(src)) return { source: 'none' };
  const rel = path.join('keys', KEY_FILES[which]);
  fs.mkdirSync(path.join(target, 'keys'), { recursive: true, mode: DIR_MODE });
  const bytes = fs.readFileSync(src);
  fs.writeFileSync(path.join(target, rel), bytes, { mode: FILE_MODE, flag: 'wx' });
  return { source: 'file', file: rel, sha256: sha256(bytes) };
}
