import type { Db } from '../adapters/db';
import type { UrlIssuedTo } from '../adapters/storage';
import { audit } from './audit';
import { findFileByKey, markRejected, markStored, type MedicalFileRow } from './files';
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

/** The upload a signed PUT URL was issued for (its row was created, and audited, with the URL). */
export const signedUploads = {
  find: (db: Db, storageKey: string) => findFileByKey(db, storageKey),
  markStored: (db: Db, id: string, size: number, at: Date) => markStored(db, id, size, at),
  markRejected: (db: Db, id: string) => markRejected(db, id),
};
