import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from './adapters/db';

/*
 * The real start-up (server.ts, through ts-node) on a DATA_DIR an older version left open to
 * everyone: every path under it is owner-only afterwards, and what the api writes while running
 * (PGlite's files, the key files, the lock) is too.
 */
const API_DIR = path.resolve(__dirname, '..');
const SERVER = path.resolve(__dirname, 'server.ts');
const PORT = 47600 + (process.pid % 300);

function modes(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    out.push([path.relative(dir, p) || '.', (stat.mode & 0o777).toString(8)]);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return out;
}
const notOwnerOnly = (dir: string) =>
  modes(dir).filter(([p, mode]) => mode !== (fs.lstatSync(path.join(dir, p)).isDirectory() ? '700' : '600'));

async function runServerUntilListening(dataDir: string): Promise<{ stdout: string; stderr: string; code: number | null }> {
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
      PASSWORD_HASH_COST: '10',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      if (stdout.includes('CareLoop api listening')) resolve();
    });
    void exited.then((code) => reject(new Error(`the api exited (${code}) before listening: ${stderr}`)));
  });
  child.kill('SIGTERM');
  return { stdout, stderr, code: await exited };
}

describe('api start-up: DATA_DIR owner-only', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-startup-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('tightens an existing world-readable database, keys and mails to 0600/0700 and keeps new files owner-only', async () => {
    // An embedded database made earlier, then everything opened up as an older version left it.
    const db = await openDatabase({ dataDir });
    await db.migrate();
    await db.close();
    fs.mkdirSync(path.join(dataDir, 'outbox'));
    fs.writeFileSync(path.join(dataDir, 'outbox', 'old.eml'), 'Subject: old');
    fs.writeFileSync(path.join(dataDir, 'encryption.key'), `${Buffer.alloc(32, 7).toString('base64')}\n`);
    for (const [p] of modes(dataDir)) {
      const full = path.join(dataDir, p);
      fs.chmodSync(full, fs.lstatSync(full).isDirectory() ? 0o777 : 0o666);
    }
    expect(notOwnerOnly(dataDir).length).toBeGreaterThan(100);

    const { stderr, code } = await runServerUntilListening(dataDir);
    expect(code).toBe(0);
    expect(stderr).toMatch(/readable by their owner only/);
    expect(notOwnerOnly(dataDir)).toEqual([]);
    // Made while running: the files signing key (none existed).
    expect(fs.statSync(path.join(dataDir, 'files-signing.key')).mode & 0o777).toBe(0o600);
  }, 120_000);
});
