import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds password hashes (the embedded database), the key files, the outbox's mails and
 * medical files: nobody but the api's own user may read or write any of it.
 */
export const OWNER_ONLY_UMASK = 0o077;
export const OWNER_ONLY_DIR = 0o700;
export const OWNER_ONLY_FILE = 0o600;

/**
 * The root-cause fix: every file and directory this process creates from now on (PGlite's own
 * files included, which take no mode option) is owner-only.
 */
export function setOwnerOnlyUmask(): void {
  process.umask(OWNER_ONLY_UMASK);
}

/**
 * Creates `dir` owner-only, or tightens it and everything under it that an older version (or a
 * permissive umask) left readable by others: 0700 directories, 0600 files. Symbolic links are
 * not followed (they could point outside). Run once at start-up, before the database opens.
 * Answers how many paths were changed.
 */
export function restrictToOwner(dir: string): number {
  fs.mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIR });
  let changed = 0;
  const fix = (p: string, stat: fs.Stats) => {
    const mode = stat.isDirectory() ? OWNER_ONLY_DIR : OWNER_ONLY_FILE;
    if ((stat.mode & 0o777) !== mode) {
      fs.chmodSync(p, mode);
      changed++;
    }
  };
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    fix(p, stat);
    if (!stat.isDirectory()) return;
    for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return changed;
}
