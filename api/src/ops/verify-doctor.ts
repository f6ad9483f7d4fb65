import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type DbAdapter } from '../adapters/db';
import { heldByAnotherProcess } from '../adapters/lockfile';
import type { Config } from '../config';
import { verifyDoctorRegistration, type VerifyDoctorResult } from '../modules/profiles/registration';
import { requestOperatorCommand } from './snapshot-socket';

/**
 * The operator command as `npm run operator` takes it, for a doctor's e-mail or account id; the api's
 * log prints it, with the id, for a new doctor on the embedded default.
 */
export const verifyDoctorCommand = (doctor: string) => `npm run operator -- verify-doctor ${doctor}`;

/** The operator's name in verifiedBy. */
export const OPERATOR = 'operator';

/** What the command's result reads as; `ok` false for an unknown doctor (the command exits 1). */
export function describeVerification(doctor: string, result: VerifyDoctorResult): { ok: boolean; text: string } {
  if (result.outcome === 'unknown') {
    return {
      ok: false,
      text: doctor.includes('@') ? `No doctor account has the e-mail ${doctor}.` : `No doctor account has the id ${doctor}.`,
    };
  }
  const what = result.registration ? `registration ${result.registration}` : 'registration (none given at signup)';
  return result.outcome === 'verified'
    ? {
        ok: true,
        text: `Verified the ${what} of doctor ${doctor} at ${result.verifiedAt.toISOString()}; their connection requests are open.`,
      }
    : {
        ok: true,
        text: `The ${what} of doctor ${doctor} was already verified on ${result.verifiedAt.toISOString()}; nothing changed.`,
      };
}

/**
 * verify-doctor with the api's configuration. PostgreSQL: directly. The embedded database is open in
 * one process only: while an api runs on it, that api does the work (asked on its owner-only socket
 * in DATA_DIR, like an online backup, ops/snapshot-socket.ts); otherwise this process opens it.
 */
export async function verifyDoctor(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  /** Their e-mail or account id. */
  doctor: string,
  at = new Date(),
): Promise<VerifyDoctorResult> {
  if (!config.databaseUrl) {
    if (!fs.existsSync(path.join(config.dataDir, 'db'))) throw new Error(`There is no embedded database in ${config.dataDir}/db`);
    if (heldByAnotherProcess(path.join(config.dataDir, 'db.lock'))) {
      const answer = (await requestOperatorCommand(config.dataDir, { op: 'verify-doctor', doctor })) as VerifyDoctorResult & {
        verifiedAt?: string;
      };
      return answer.outcome === 'unknown' ? answer : { ...answer, verifiedAt: new Date(answer.verifiedAt!) };
    }
  }
  let db: DbAdapter | undefined;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    return await verifyDoctorRegistration(db.db, { doctor, by: OPERATOR, at });
  } finally {
    await db?.close();
  }
}
