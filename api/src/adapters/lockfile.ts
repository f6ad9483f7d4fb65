import fs from 'node:fs';

/**
 * PGlite has no cross-process locking: two processes on one data directory silently lose
 * committed rows. An exclusive lock file (O_EXCL) holding our pid refuses a second process;
 * a lock left by a process that no longer exists is taken over.
 */
export class LockFile {
  private released = false;
  private constructor(readonly path: string) {}

  static acquire(lockPath: string): LockFile {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = fs.openSync(lockPath, 'wx', 0o600); // owner-only, like all of DATA_DIR
        fs.writeSync(fd, String(process.pid));
        fs.closeSync(fd);
        return new LockFile(lockPath);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const holder = Number.parseInt(safeRead(lockPath), 10);
        if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
          throw new Error(
            `The database in ${lockPath.replace(/\.lock$/, '')} is already in use by process ${holder}. ` +
              'Only one api process may use an embedded (PGlite) database; stop the other one, use another ' +
              `DATA_DIR, or set DATABASE_URL to share a PostgreSQL server. If no such process runs, delete ${lockPath}.`,
            { cause: err },
          );
        }
        // Stale lock from a crashed process: remove it and try once more.
        fs.rmSync(lockPath, { force: true });
      }
    }
    throw new Error(`Could not take the lock file ${lockPath}`);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (safeRead(this.path) === String(process.pid)) fs.rmSync(this.path, { force: true });
  }
}

function safeRead(p: string): string {
  try {
    return fs.readFileSync(p, 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the lock file names a live process other than this one (a running api holds the embedded database). */
export function heldByAnotherProcess(lockPath: string): boolean {
  try {
    LockFile.acquire(lockPath).release();
    return false;
  } catch (err) {
    if (/already in use/.test((err as Error).message)) return true;
    throw err;
  }
}
