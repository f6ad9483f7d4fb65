import fs from 'node:fs';
import path from 'node:path';
import { isNotNull, or } from 'drizzle-orm';
import { ROLES, type Role } from '@careloop/shared-contracts';
import type { Queryable } from '../../../adapters/db';
import { createSecretBox, loadEncryptionKey } from '../../../lib/secret-box';
import type { KeySource } from '../../../lib/key-file';
import { accountTables } from '../../../db/schema';
import { secretContext } from './store';

/** One sealed two-factor secret of the database, with the context it was sealed for; undefined when there is none. */
async function anySealedSecret(db: Queryable): Promise<{ sealed: string; context: string } | undefined> {
  for (const role of ROLES as readonly Role[]) {
    const t = accountTables[role];
    const [row] = await db
      .select({ id: t.id, secret: t.twoFactorSecret, pending: t.twoFactorPendingSecret })
      .from(t)
      .where(or(isNotNull(t.twoFactorSecret), isNotNull(t.twoFactorPendingSecret)))
      .limit(1);
    const sealed = row?.secret ?? row?.pending;
    if (row && sealed) return { sealed, context: secretContext(role, row.id) };
  }
  return undefined;
}

/**
 * The encryption key, checked against the database before the api starts. A database that holds
 * sealed two-factor secrets gets no NEW key: a restored database without its encryption.key, or
 * with another key, stops start-up with what to do, instead of every two-factor account being
 * locked out with "Invalid or expired code". An empty database gets a new key file as before.
 */
export async function openEncryptionKey(
  db: Queryable,
  config: { encryptionKey?: string; dataDir: string },
): Promise<{ key: Buffer; source: KeySource }> {
  const sealed = await anySealedSecret(db);
  const file = path.join(config.dataDir, 'encryption.key');
  if (sealed && !config.encryptionKey && !fs.existsSync(file)) {
    throw new Error(
      `the database holds two-factor secrets sealed with an encryption key, but ENCRYPTION_KEY is unset and ${file} ` +
        'does not exist. Put back the encryption.key of this database (it is in its backup folder, keys/) or set ' +
        'ENCRYPTION_KEY to it. No new key is made: it could not open those secrets.',
    );
  }
  const loaded = loadEncryptionKey(config);
  if (sealed) {
    try {
      createSecretBox(loaded.key).decrypt(sealed.sealed, sealed.context);
    } catch {
      const where = loaded.source === 'env' ? 'ENCRYPTION_KEY' : file;
      throw new Error(
        `the encryption key in ${where} does not open the two-factor secrets in the database: it is not the key they ` +
          'were sealed with. Use the encryption.key backed up with this database.',
      );
    }
  }
  return loaded;
}
