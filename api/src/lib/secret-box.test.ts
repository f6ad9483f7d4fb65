import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSecretBox, loadEncryptionKey } from './secret-box';

describe('secret box (AES-256-GCM)', () => {
  const box = createSecretBox(randomBytes(32));

  it('round-trips, with a fresh IV every time', () => {
    const a = box.encrypt('JBSWY3DPEHPK3PXP', 'patient:1:totp');
    const b = box.encrypt('JBSWY3DPEHPK3PXP', 'patient:1:totp');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(box.decrypt(a, 'patient:1:totp')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses another context, another key, and any tampering', () => {
    const sealed = box.encrypt('secret', 'doctor:7:totp');
    expect(() => box.decrypt(sealed, 'doctor:8:totp')).toThrow();
    expect(() => createSecretBox(randomBytes(32)).decrypt(sealed, 'doctor:7:totp')).toThrow();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => box.decrypt([...parts.slice(0, 3), flipped.toString('base64url')].join('.'), 'doctor:7:totp')).toThrow();
    expect(() => box.decrypt('plain', 'doctor:7:totp')).toThrow();
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('encryption key', () => {
  let dir: string;
  beforeEach(() => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-key-')), 'data');
  });
  afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  it('comes from ENCRYPTION_KEY (base64 of 32 bytes) when set, and writes no file', () => {
    const key = randomBytes(32);
    const loaded = loadEncryptionKey({ encryptionKey: key.toString('base64'), dataDir: dir });
    expect(loaded.source).toBe('env');
    expect(loaded.key.equals(key)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'encryption.key'))).toBe(false);
    expect(() => loadEncryptionKey({ encryptionKey: randomBytes(16).toString('base64'), dataDir: dir })).toThrow(
      /ENCRYPTION_KEY/,
    );
  });

  it('otherwise creates <DATA_DIR>/encryption.key (mode 0600) once and reuses it', () => {
    const first = loadEncryptionKey({ dataDir: dir });
    expect(first.source).toBe('new-file');
    const file = path.join(dir, 'encryption.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const second = loadEncryptionKey({ dataDir: dir });
    expect(second.source).toBe('file');
    expect(second.key.equals(first.key)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['encryption.key']); // no temporary files left
    // A secret sealed before a restart opens after it.
    const sealed = createSecretBox(first.key).encrypt('s', 'c');
    expect(createSecretBox(second.key).decrypt(sealed, 'c')).toBe('s');
  });

  it('refuses a damaged key file instead of making a new key', () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'encryption.key'), 'too short');
    expect(() => loadEncryptionKey({ dataDir: dir })).toThrow(/encryption\.key/);
  });
});
