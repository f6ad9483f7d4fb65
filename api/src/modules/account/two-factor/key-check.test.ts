import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../adapters/db';
import { patients } from '../../../db/schema';
import { createSecretBox } from '../../../lib/secret-box';
import { openEncryptionKey } from './key-check';
import { secretContext } from './store';

/*
 * A database holding two-factor secrets never gets a NEW encryption key: start-up stops with what
 * to do when the key file is missing or is another key (the real server.ts, through ts-node).
 */
const API_DIR = path.resolve(__dirname, '../../../..');
const SERVER = path.resolve(API_DIR, 'src/server.ts');
const PORT = 47900 + (process.pid % 90);

function runServer(dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register', SERVER], {
    cwd: API_DIR,
    env: {
      ...process.env,
      TS_NODE_TRANSPILE_ONLY: 'true',
      TS_NODE_PROJECT: path.join(API_DIR, 'tsconfig.json'),
      TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'CommonJS', moduleResolution: 'Node10' }),
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ENCRYPTION_KEY: '',
      FILES_SIGNING_KEY: '',
      LOG_LEVEL: 'silent',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => {
    // It must never get this far; stop it if it does, so the test fails instead of hanging.
    if (String(d).includes('listening')) child.kill('SIGTERM');
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

const newKey = () => randomBytes(32);

/** An embedded database with one two-factor account whose secret is sealed with `key`. */
async function databaseWithSecret(dataDir: string, key: Buffer): Promise<void> {
  const db = await openDatabase({ dataDir });
  try {
    await db.migrate();
    const id = '6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
    await db.db.insert(patients).values({
      id,
      name: 'Two Factor',
      email: 'two.factor@example.com',
      passwordHash: 'x',
      twoFactorEnabled: true,
      twoFactorSecret: createSecretBox(key).encrypt('JBSWY3DPEHPK3PXP', secretContext('patient', id)),
    });
  } finally {
    await db.close();
  }
}

describe('encryption key at start-up', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-keycheck-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('refuses to start when the database holds two-factor secrets and encryption.key is missing; makes no new key', async () => {
    const dataDir = tmp();
    await databaseWithSecret(dataDir, newKey());
    const { code, stderr } = await runServer(dataDir);
    expect(code).toBe(1);
    expect(stderr).toMatch(/two-factor secrets[\s\S]*encryption\.key does not exist/);
    expect(stderr).toMatch(/No new key is made/);
    expect(fs.existsSync(path.join(dataDir, 'encryption.key'))).toBe(false);
  });

  it('refuses to start when encryption.key is another key than the secrets were sealed with', async () => {
    const dataDir = tmp();
    await databaseWithSecret(dataDir, newKey());
    fs.writeFileSync(path.join(dataDir, 'encryption.key'), `${newKey().toString('base64')}\n`, { mode: 0o600 });
    const { code, stderr } = await runServer(dataDir);
    expect(code).toBe(1);
    expect(stderr).toMatch(/does not open the two-factor secrets/);
  });

  it('opens with the right key, and makes a new key file for an empty database as before', async () => {
    const withData = tmp();
    const key = newKey();
    await databaseWithSecret(withData, key);
    fs.writeFileSync(path.join(withData, 'encryption.key'), `${key.toString('base64')}\n`, { mode: 0o600 });
    const empty = tmp();
    for (const [dataDir, source] of [
      [withData, 'file'],
      [empty, 'new-file'],
    ] as const) {
      const db = await openDatabase({ dataDir });
      try {
        await db.migrate();
        const opened = await openEncryptionKey(db.db, { dataDir });
        expect(opened.source).toBe(source);
        expect(fs.existsSync(path.join(dataDir, 'encryption.key'))).toBe(true);
      } finally {
        await db.close();
      }
    }
  });
});
