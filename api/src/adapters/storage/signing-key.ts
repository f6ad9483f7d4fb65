import path from 'node:path';
import type { Config } from '../../config';
import { MIN_SIGNING_KEY_BYTES } from '../../config';
import { loadOrCreateKey, type KeySource } from '../../lib/key-file';

/** FILES_SIGNING_KEY, or `<dataDir>/files-signing.key` made on first start (mode 0600). */
export function loadFilesSigningKey(config: Pick<Config, 'dataDir' | 'files'>): { key: Buffer; source: KeySource } {
  return loadOrCreateKey({
    fromEnv: config.files.signingKey,
    envName: 'FILES_SIGNING_KEY',
    file: path.join(config.dataDir, 'files-signing.key'),
    newBytes: 32,
    minBytes: MIN_SIGNING_KEY_BYTES,
  });
}
