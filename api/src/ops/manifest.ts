import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../config';

/** What a backup folder holds (manifest.json); written last, so a folder without it is no backup. */
export interface BackupManifest {
  format: 'careloop-backup/1';
  takenAt: string;
  app: { version: string };
  schema: { latestMigration: string; appliedMigrations: number };
  database: { kind: 'pglite' | 'postgres'; file: string; bytes: number; sha256: string };
  /** Rows per table of the database snapshot (schema public). */
  rowCounts: Record<string, number>;
  files: {
    store: 'local' | 's3';
    /** Local disk: every stored file the snapshot references, copied under files/. S3: the keys only. */
    entries: Array<{ key: string; bytes?: number; sha256?: string }>;
    /** Referenced by the snapshot but absent from the store when the backup was taken. */
    missing: string[];
  };
  keys: { encryption: KeyEntry; filesSigning: KeyEntry };
}

/** A key copied into the backup (keys/…), or one given by an environment variable (only its fingerprint is kept). */
export type KeyEntry =
  { source: 'file'; file: string; sha256: string } | { source: 'env'; envName: string; fingerprint: string } | { source: 'none' };

export const MANIFEST = 'manifest.json';
export const KEY_FILES = { encryption: 'encryption.key', filesSigning: 'files-signing.key' } as const;
export const KEY_ENV = { encryption: 'ENCRYPTION_KEY', filesSigning: 'FILES_SIGNING_KEY' } as const;

export function sha256(data: Buffer | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function sha256File(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** The key's identity without the key: the first 16 hex digits of the SHA-256 of its bytes. */
export function keyFingerprint(base64: string): string {
  return sha256(Buffer.from(base64.trim(), 'base64')).slice(0, 16);
}

export function appVersion(): string {
  // api/package.json, one level above src/ and dist/
  const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The migrations this code knows, oldest first (drizzle's journal). */
export function knownMigrations(): string[] {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  return journal.entries.map((e) => e.tag);
}

/** Raw SQL on a snapshot (an opened PGlite copy or a PostgreSQL transaction). */
export type SnapshotQuery = <T>(text: string) => Promise<T[]>;

export interface SnapshotFacts {
  rowCounts: Record<string, number>;
  appliedMigrations: number;
  storedFileKeys: string[];
}

/** Row counts, migrations applied and the stored files' keys, all read from the one snapshot. */
export async function readSnapshotFacts(query: SnapshotQuery): Promise<SnapshotFacts> {
  const tables = await query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  const rowCounts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await query<{ n: string | number }>(`select count(*) as n from public."${name.replace(/"/g, '""')}"`);
    rowCounts[name] = Number(row.n);
  }
  const [migrations] = await query<{ n: string | number }>(`select count(*) as n from drizzle.__drizzle_migrations`).catch(() => [
    { n: 0 },
  ]);
  const files = tables.some((t) => t.name === 'medical_files')
    ? await query<{ key: string }>(`select storage_key as key from medical_files where status = 'stored' order by storage_key`)
    : [];
  return { rowCounts, appliedMigrations: Number(migrations.n), storedFileKeys: files.map((f) => f.key) };
}
