import type { Db } from '../adapters/db';
import type { UrlIssuedTo } from '../adapters/storage';
import { audit } from './audit';
import { findFileByKey, markRejected, markStored, storedKeys, type MedicalFileRow } from './files';
import { maySee } from './policy';

/*
 * The local disk's signed URLs carry no bearer: the HMAC signature is the authority (checked by
 * modules/files/local-routes.ts before any of this runs).
 */

/**
 * A download through a signed URL: the stored file, if whoever the URL was issued to may still
 * see its patient, audited as their read of the file. Undefined answers 404.
 */
export async function signedDownload(
  db: Db,
  storageKey: string,
  issuedTo: UrlIssuedTo,
  at: Date,
  ip: string | null,
): Promise<MedicalFileRow | undefined> {
  return db.transaction(async (tx) => {
    const row = await findFileByKey(tx, storageKey);
    if (!row || row.status !== 'stored' || !(await maySee(tx, issuedTo, row.patientId))) return undefined;
    await audit(tx, {
      actorId: issuedTo.accountId,
      actorRole: issuedTo.role,
      at,
      ip,
      action: 'read',
      entity: 'medical_file',
      entityId: row.id,
      patientId: row.patientId,
    });
    return row;
  });
}

/** The upload a signed PUT URL was issued for (its row was created with the URL; audited once stored). */
export const signedUploads = {
  find: (db: Db, storageKey: string) => findFileByKey(db, storageKey),
  /**
   * pending → stored and `place` (the file moved to its final place) as one unit of work: false
   * when the row already left pending (nothing placed). If the commit fails this throws, and the
   * caller takes the placed file back: a file is final only with its stored row.
   */
  store: (db: Db, id: string, size: number, at: Date, ip: string | null, place: () => Promise<void>) =>
    db.transaction(async (tx) => {
      if (!(await markStored(tx, id, size, at, ip))) return false;
      await place();
      return true;
    }),
  markRejected: (db: Db, id: string) => markRejected(db, id),
};

/** Which of these storage keys have a stored row (the orphan sweep keeps those files). */
export const fileSweep = {
  storedKeys: (db: Db, keys: string[]) => storedKeys(db, keys),
};
