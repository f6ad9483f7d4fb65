import { loadConfig } from '../config';
import { setOwnerOnlyUmask } from '../lib/owner-only';
import { takeBackup } from './backup';
import { restoreBackup } from './restore';
import { describeVerification, verifyDoctor } from './verify-doctor';

/*
 * `npm run backup -- <folder>` and `npm run restore -- <folder>` (docs/backup-and-restore.md), and
 * `npm run operator -- verify-doctor <email>` (docs/security.md), with the api's own configuration
 * (DATA_DIR, DATABASE_URL, key and S3 variables).
 */
async function main(argv: string[]): Promise<number> {
  const [command, folder] = argv;
  if (command === 'verify-doctor' && folder && argv.length === 2) {
    setOwnerOnlyUmask(); // it may open the embedded database's files itself
    const outcome = describeVerification(folder, await verifyDoctor(loadConfig(), folder));
    (outcome.ok ? console.log : console.error)(outcome.text);
    return outcome.ok ? 0 : 1;
  }
  if (!['backup', 'restore'].includes(command) || !folder) {
    console.error(
      'usage: npm run backup -- <folder>   |   npm run restore -- <folder>   |   npm run operator -- verify-doctor <email>',
    );
    return 2;
  }
  const config = loadConfig();
  setOwnerOnlyUmask(); // the folder holds the keys: owner-only
  const log = (line: string) => console.log(line);
  if (command === 'backup') {
    const { manifest, folder: at } = await takeBackup(config, folder, log);
    const rows = Object.values(manifest.rowCounts).reduce((a, b) => a + b, 0);
    console.log(`backup written to ${at}: ${rows} rows, ${manifest.files.entries.length} files, taken ${manifest.takenAt}`);
    if (manifest.files.store === 's3') {
      console.log('files live in S3 and are not copied: keep bucket versioning on (docs/backup-and-restore.md)');
    }
    if (manifest.files.missing.length > 0) {
      console.error(`${manifest.files.missing.length} stored files were missing from the store (listed in manifest.json)`);
      return 1;
    }
    return 0;
  }
  const result = await restoreBackup(config, folder, { log });
  console.log(
    `restored the backup of ${result.manifest.takenAt}: ${result.files} files; reminders moved past today ` +
      `${result.reminders.moved}, completed ${result.reminders.completed}, retries stopped ${result.reminders.retriesStopped}`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    console.error(`${err.message}`);
    process.exitCode = 1;
  },
);
