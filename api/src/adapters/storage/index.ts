import type { Config } from '../../config';
import type { KeySource } from '../../lib/key-file';
import type { Clock } from '../clock';
import { LocalDiskStorage } from './local-disk';
import { S3Storage } from './s3';
import { loadFilesSigningKey } from './signing-key';
import type { FileStorage } from './storage';

// Medical PDF storage: the interface (storage.ts), local disk, S3, and the local signing key.
export * from './storage';
export { LocalDiskStorage, UploadRejected } from './local-disk';
export { S3Storage } from './s3';
export { loadFilesSigningKey } from './signing-key';

/** S3 when configured, else the local disk (whose signing key is loaded or made here). */
export function createStorage(
  config: Pick<Config, 'dataDir' | 'files' | 'apiPublicUrl'>,
  clock: Clock,
): { storage: FileStorage; keySource?: KeySource } {
  if (config.files.s3) return { storage: new S3Storage(config.files.s3, clock) };
  const { key, source } = loadFilesSigningKey(config);
  return { storage: new LocalDiskStorage(config.dataDir, key, config.apiPublicUrl, clock), keySource: source };
}
