import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadOrCreateKey, type KeySource } from './key-file';

// AES-256-GCM for small secrets at rest (two-factor secrets). Stored form:
//   v1.<iv base64url>.<auth tag base64url>.<ciphertext base64url>
// A fresh 12-byte IV per encryption. The "context" (e.g. `patient:<id>:totp`) is bound in as
// additional authenticated data, so a ciphertext copied onto another row does not decrypt.

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;

export interface SecretBox {
  encrypt(plain: string, context: string): string;
  /** Throws when the value was tampered with, made with another key, or for another context. */
  decrypt(sealed: string, context: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`The encryption key must be ${KEY_BYTES} bytes`);
  return {
    encrypt(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
    },
    decrypt(sealed, context) {
      const [version, iv, tag, ct] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || ct === undefined) throw new Error('Unrecognised sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The key from ENCRYPTION_KEY, or else from `<dataDir>/encryption.key`, made on first start
 * (mode 0600) and reused afterwards. Several replicas must share one ENCRYPTION_KEY: a key file
 * is local to its machine, and secrets sealed by one replica would not open on another.
 */
export function loadEncryptionKey(opts: { encryptionKey?: string; dataDir: string }): { key: Buffer; source: KeySource } {
  return loadOrCreateKey({
    fromEnv: opts.encryptionKey,
    envName: 'ENCRYPTION_KEY',
    file: path.join(opts.dataDir, 'encryption.key'),
    newBytes: KEY_BYTES,
  });
}
