import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../adapters/db';
import { createMailer } from '../adapters/mail';
import { restrictToOwner, setOwnerOnlyUmask } from './owner-only';
import { loadOrCreateKey } from './key-file';

/** Every path under dir (itself included) with its permission bits. */
function modes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    out.set(path.relative(dir, p) || '.', stat.mode & 0o777);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return out;
}

function expectOwnerOnly(dir: string) {
  for (const [p, mode] of modes(dir)) {
    const isDir = fs.lstatSync(path.join(dir, p)).isDirectory();
    expect([p, mode]).toEqual([p, isDir ? 0o700 : 0o600]);
  }
}

describe('DATA_DIR owner-only (0700 directories, 0600 files)', () => {
  let root: string;
  let umaskBefore: number;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-owner-only-'));
    umaskBefore = process.umask();
  });
  afterEach(() => {
    process.umask(umaskBefore);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('start-up tightens a data dir an older version left world-readable and writable', () => {
    const dataDir = path.join(root, 'data');
    process.umask(0); // as an older api (or a careless umask) would have created them
    fs.mkdirSync(path.join(dataDir, 'db', 'base'), { recursive: true, mode: 0o777 });
    fs.mkdirSync(path.join(dataDir, 'outbox'), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'db', 'base', '1249'), 'password hashes', { mode: 0o666 });
    fs.writeFileSync(path.join(dataDir, 'encryption.key'), 'key', { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, 'outbox', 'a.eml'), 'mail', { mode: 0o666 });
    fs.chmodSync(dataDir, 0o777);
    // A link out of DATA_DIR is not followed: its target keeps its mode.
    const outside = path.join(root, 'outside.txt');
    fs.writeFileSync(outside, 'not ours', { mode: 0o644 });
    fs.symlinkSync(outside, path.join(dataDir, 'link'));
    process.umask(umaskBefore);

    expect(restrictToOwner(dataDir)).toBe(7); // 4 directories, 3 files
    fs.rmSync(path.join(dataDir, 'link'));
    expectOwnerOnly(dataDir);
    expect(fs.statSync(outside).mode & 0o777).toBe(0o644);
    expect(restrictToOwner(dataDir)).toBe(0); // once is enough
  });

  it('creates a missing data dir owner-only', () => {
    const dataDir = path.join(root, 'new', 'data');
    restrictToOwner(dataDir);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it("with the start-up umask, everything the api then writes is owner-only: PGlite's files, the lock, keys, mails", async () => {
    const dataDir = path.join(root, 'data');
    process.umask(0o000); // the worst case the umask must override
    setOwnerOnlyUmask();
    restrictToOwner(dataDir);
    const db = await openDatabase({ dataDir });
    try {
      await db.migrate();
      expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(true);
      loadOrCreateKey({ envName: 'TEST_KEY', file: path.join(dataDir, 'keys', 'test.key'), newBytes: 32 });
      const mailer = createMailer({ dataDir, mailFrom: 'CareLoop <no-reply@careloop.example>' });
      await mailer.send({ to: 'pat@example.com', subject: 'Hello', text: 'hi' });
      mailer.close();
      expect(modes(dataDir).size).toBeGreaterThan(10);
      expectOwnerOnly(dataDir);
      await db.executor!.executeSql('create table owner_only_check (a int); insert into owner_only_check values (1); checkpoint');
    } finally {
      await db.close();
    }
    expectOwnerOnly(dataDir); // what PGlite wrote while running and closing
  });

  it('the database adapter tightens what PGlite writes even without the umask', async () => {
    const dataDir = path.join(root, 'data');
    restrictToOwner(dataDir);
    const db = await openDatabase({ dataDir });
    await db.close();
    expectOwnerOnly(dataDir);
  });
});
