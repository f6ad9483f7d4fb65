import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Client } from 'pg';
import { openDatabase, selectRows, type Db } from '../adapters/db';
import { LockFile } from '../adapters/lockfile';
import { restrictToOwner } from '../lib/owner-only';
import type { BackupConfig } from './backup';
import { run } from './backup';
import {
  KEY_ENV,
  KEY_FILES,
  keyFingerprint,
  knownMigrations,
  MANIFEST,
  readSnapshotFacts,
  sha256File,
  type BackupManifest,
  type SnapshotFacts,
} from './manifest';
import { skipPastReminderOccurrences, stopRetriesAfterRestore } from '../access';

/*
 * A restore goes into an EMPTY place only (a fresh DATA_DIR, or an empty PostgreSQL database):
 * it never merges into or overwrites live data. Everything in the backup is checked against the
 * manifest's checksums before anything is written, and a backup whose key files are missing is
 * refused: without encryption.key every two-factor secret in it is unreadable.
 */

export interface RestoreResult {
  manifest: BackupManifest;
  rowCounts: Record<string, number>;
  reminders: { moved: number; completed: number; retriesStopped: number };
  files: number;
}

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export async function restoreBackup(
  config: BackupConfig,
  folder: string,
  { now = new Date(), log = () => undefined }: { now?: Date; log?: (line: string) => void } = {},
): Promise<RestoreResult> {
  const source = path.resolve(folder);
  const manifest = readManifest(source);
  await verifyChecksums(source, manifest);
  checkKeys(config, source, manifest);
  const known = knownMigrations().length;
  if (manifest.schema.appliedMigrations > known) {
    throw new Error(
      `The backup was taken by a newer version (${manifest.schema.appliedMigrations} migrations; this one knows ${known}): restore it with that version`,
    );
  }
  const wanted = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database.kind !== wanted) {
    throw new Error(
      `The backup holds a ${manifest.database.kind} database but this configuration uses ${wanted}: ` +
        (wanted === 'postgres'
          ? 'unset DATABASE_URL to restore it as the embedded database'
          : 'set DATABASE_URL to an empty PostgreSQL database'),
    );
  }
  checkFilesAndKeysEmpty(config);

  const result = config.databaseUrl
    ? await restorePostgres(config.databaseUrl, source, manifest, now, config.clinicTimeZone)
    : await restorePglite(config.dataDir, source, manifest, now, config.clinicTimeZone);
  log(`database restored (${Object.keys(result.facts.rowCounts).length} tables)`);

  const files = restoreFiles(config, source, manifest);
  restoreKeys(config, source, manifest);

  const differs = Object.entries(manifest.rowCounts).filter(([table, n]) => result.facts.rowCounts[table] !== n);
  if (differs.length > 0) {
    throw new Error(
      `The restored database does not hold the rows the backup recorded: ${differs
        .map(([t, n]) => `${t} ${result.facts.rowCounts[t]} ≠ ${n}`)
        .join(', ')}`,
    );
  }
  return { manifest, rowCounts: result.facts.rowCounts, reminders: result.reminders, files };
}

export function readManifest(source: string): BackupManifest {
  const file = path.join(source, MANIFEST);
  if (!fs.existsSync(file)) throw new Error(`${source} holds no ${MANIFEST}: not a complete backup`);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== 'careloop-backup/1') throw new Error(`${file}: unknown backup format ${String(manifest.format)}`);
  return manifest;
}

/** Every file the manifest lists is there with its checksum; otherwise nothing is restored. */
async function verifyChecksums(source: string, manifest: BackupManifest): Promise<void> {
  const expected: Array<{ file: string; sha256: string }> = [
    { file: manifest.database.file, sha256: manifest.database.sha256 },
    ...Object.values(manifest.keys).flatMap((k) => (k.source === 'file' ? [{ file: k.file, sha256: k.sha256 }] : [])),
    ...manifest.files.entries.flatMap((e) => (e.sha256 ? [{ file: path.join('files', e.key), sha256: e.sha256 }] : [])),
  ];
  const bad: string[] = [];
  for (const { file, sha256 } of expected) {
    const full = path.join(source, file);
    if (!fs.existsSync(full)) bad.push(`${file} is missing`);
    else if ((await sha256File(full)).sha256 !== sha256) bad.push(`${file} does not match its checksum`);
  }
  if (bad.length > 0) throw new Error(`The backup in ${source} is damaged; nothing was restored: ${bad.join('; ')}`);
}

/** The keys the data was sealed and signed with must come back: from the backup, or the same environment variable. */
function checkKeys(config: BackupConfig, source: string, manifest: BackupManifest): void {
  const env = { encryption: config.encryptionKey, filesSigning: config.files.signingKey };
  for (const which of ['encryption', 'filesSigning'] as const) {
    const entry = manifest.keys[which];
    const given = env[which];
    if (entry.source === 'env') {
      if (!given || keyFingerprint(given) !== entry.fingerprint) {
        throw new Error(
          `The backup was taken with ${entry.envName} set (fingerprint ${entry.fingerprint}): set it to that same key before restoring`,
        );
      }
    } else if (entry.source === 'file' && given) {
      const inBackup = fs.readFileSync(path.join(source, entry.file), 'utf8');
      if (keyFingerprint(given) !== keyFingerprint(inBackup)) {
        throw new Error(
          `${KEY_ENV[which]} is set to another key than the backup's ${entry.file}: unset it, or set it to that key`,
        );
      }
    }
  }
}

function isEmptyDir(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).filter((n) => n !== '.tmp').length === 0;
}

function checkFilesAndKeysEmpty(config: BackupConfig): void {
  const taken: string[] = [];
  if (!config.files.s3 && !isEmptyDir(path.join(config.dataDir, 'files'))) taken.push(path.join(config.dataDir, 'files'));
  for (const which of ['encryption', 'filesSigning'] as const) {
    const file = path.join(config.dataDir, KEY_FILES[which]);
    if (fs.existsSync(file)) taken.push(file);
  }
  if (taken.length > 0) throw new Error(`A restore goes into an empty place only; these exist already: ${taken.join(', ')}`);
}

interface DbRestore {
  facts: SnapshotFacts;
  reminders: RestoreResult['reminders'];
}

async function afterRestore(db: Db, now: Date, timeZone: string, query: <T>(text: string) => Promise<T[]>): Promise<DbRestore> {
  const facts = await readSnapshotFacts(query);
  const { moved, completed } = await skipPastReminderOccurrences(db, now, timeZone);
  const retriesStopped = await stopRetriesAfterRestore(db);
  return { facts, reminders: { moved, completed, retriesStopped } };
}

async function restorePglite(
  dataDir: string,
  source: string,
  manifest: BackupManifest,
  now: Date,
  timeZone: string,
): Promise<DbRestore> {
  const dbDir = path.join(dataDir, 'db');
  fs.mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  // Held throughout: no api starts on the half-restored database.
  const lock = LockFile.acquire(path.join(dataDir, 'db.lock'));
  try {
    if (!isEmptyDir(dbDir)) throw new Error(`A restore goes into an empty place only: ${dbDir} holds a database already`);
    const client = await PGlite.create(dbDir, {
      loadDataDir: new Blob([fs.readFileSync(path.join(source, manifest.database.file))]),
    });
    try {
      const db = drizzlePglite({ client }) as unknown as Db;
      return await afterRestore(db, now, timeZone, async <T>(text: string) => (await client.query<T>(text)).rows);
    } finally {
      await client.close();
      restrictToOwner(dataDir);
    }
  } finally {
    lock.release();
  }
}

async function restorePostgres(
  url: string,
  source: string,
  manifest: BackupManifest,
  now: Date,
  timeZone: string,
): Promise<DbRestore> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    if (Number(rows[0].n) > 0) throw new Error('A restore goes into an empty database only: this one has tables');
  } finally {
    await client.end();
  }
  await run('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    `--dbname=${url}`,
    path.join(source, manifest.database.file),
  ]);
  const adapter = await openDatabase({ databaseUrl: url, dataDir: '' });
  try {
    return await afterRestore(adapter.db, now, timeZone, (text) => selectRows(adapter.db, sql.raw(text)));
  } finally {
    await adapter.close();
  }
}

function restoreFiles(config: BackupConfig, source: string, manifest: BackupManifest): number {
  if (manifest.files.store !== 'local' || config.files.s3) return 0;
  const root = path.join(config.dataDir, 'files');
  for (const { key } of manifest.files.entries) {
    const dst = path.join(root, key);
    fs.mkdirSync(path.dirname(dst), { recursive: true, mode: DIR_MODE });
    fs.copyFileSync(path.join(source, 'files', key), dst, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(dst, FILE_MODE);
  }
  return manifest.files.entries.length;
}

function restoreKeys(config: BackupConfig, source: string, manifest: BackupManifest): void {
  for (const which of ['encryption', 'filesSigning'] as const) {
    const entry = manifest.keys[which];
    if (entry.source !== 'file') continue;
    fs.mkdirSync(config.dataDir, { recursive: true, mode: DIR_MODE });
    fs.copyFileSync(path.join(source, entry.file), path.join(config.dataDir, KEY_FILES[which]), fs.constants.COPYFILE_EXCL);
    fs.chmodSync(path.join(config.dataDir, KEY_FILES[which]), FILE_MODE);
  }
}
