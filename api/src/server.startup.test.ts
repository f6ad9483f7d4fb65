import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from './adapters/db';
import { startSourceServer } from './test/source-server';

/*
 * The real start-up (server.ts, through ts-node) on a DATA_DIR an older version left open to
 * everyone: every path under it is owner-only afterwards, and what the api writes while running
 * (PGlite's files, the key files, the lock) is too.
 */
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
  const server = await startSourceServer({ port: PORT, env: { DATA_DIR: dataDir } });
  return { stdout: server.stdout(), stderr: server.stderr(), code: await server.stop() };
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
