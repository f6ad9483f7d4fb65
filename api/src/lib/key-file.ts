import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type KeySource = 'env' | 'file' | 'new-file';

export interface KeySpec {
  /** The value of the environment variable, when set (base64). */
  fromEnv?: string;
  /** Its name, for error messages. */
  envName: string;
  /** The key file used when the variable is unset. */
  file: string;
  /** Bytes of a new key. */
  newBytes: number;
  /** Accepted lengths: exactly `newBytes` unless a minimum is given. */
  minBytes?: number;
}

function parseKey(base64: string, where: string, spec: KeySpec): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  const ok = spec.minBytes === undefined ? key.length === spec.newBytes : key.length >= spec.minBytes;
  if (!ok) {
    const size = spec.minBytes === undefined ? `${spec.newBytes}` : `at least ${spec.minBytes}`;
    throw new Error(`${where} must be the base64 of ${size} random bytes (e.g. \`openssl rand -base64 ${spec.newBytes}\`)`);
  }
  return key;
}

/**
 * A key from its environment variable, or else from a key file made on first start (mode 0600)
 * and reused afterwards. Several replicas must share the variable: a key file is local to its
 * machine. Used for ENCRYPTION_KEY (lib/secret-box.ts) and FILES_SIGNING_KEY (adapters/storage.ts).
 */
export function loadOrCreateKey(spec: KeySpec): { key: Buffer; source: KeySource } {
  if (spec.fromEnv) return { key: parseKey(spec.fromEnv, spec.envName, spec), source: 'env' };
  const file = spec.file;
  try {
    return { key: parseKey(fs.readFileSync(file, 'utf8'), file, spec), source: 'file' };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written whole to a temporary file, then linked into place: a process starting at the same
  // moment either finds no file or the complete one, and only one of two racing keys wins.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, `${randomBytes(spec.newBytes).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  let created = true;
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    created = false;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return { key: parseKey(fs.readFileSync(file, 'utf8'), file, spec), source: created ? 'new-file' : 'file' };
}
