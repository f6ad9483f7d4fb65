import { fileSweep } from '../../access';
import { sweepOutboxTemps } from '../../adapters/mail';
import type { AppDeps } from '../../deps';

/**
 * Only files last written longer ago than this are swept: an upload may take at most the
 * server's requestTimeout (300 s) and is placed right after its last byte, so an hour never
 * touches one in flight.
 */
export const ORPHAN_MIN_AGE_MS = 60 * 60_000;
/** Besides the sweep at start-up. */
export const ORPHAN_SWEEP_INTERVAL_MS = 60 * 60_000;

export interface SweepResult {
  /** Upload temp files (`files/.tmp/*.part`) of interrupted uploads. */
  parts: number;
  /** Files in the store with no stored row (an upload whose transaction never committed). */
  unreferenced: number;
  /** Outbox temp files (`outbox/.*.eml.tmp`) of interrupted mail writes. */
  mailTemps: number;
}

interface SweepLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Removes what interrupted uploads and mail writes left, older than `minAgeMs`; logs what it removed. */
export async function sweepOrphans(
  deps: Pick<AppDeps, 'db' | 'storage' | 'config'>,
  now: Date,
  log: SweepLog,
  minAgeMs = ORPHAN_MIN_AGE_MS,
): Promise<SweepResult> {
  const olderThan = new Date(now.getTime() - minAgeMs);
  const files = deps.storage.localServer
    ? await deps.storage.localServer.sweepOrphans(olderThan, (keys) => fileSweep.storedKeys(deps.db.db, keys))
    : { parts: 0, unreferenced: 0 };
  // The outbox is swept whichever mailer is configured: a switch to SMTP leaves its temp files too.
  const result = { ...files, mailTemps: await sweepOutboxTemps(deps.config.dataDir, olderThan) };
  if (result.parts + result.unreferenced + result.mailTemps > 0) log.info({ ...result }, 'orphan sweep removed files');
  return result;
}

/** Sweeps now and every ORPHAN_SWEEP_INTERVAL_MS; a failed sweep (the database away) is logged and tried next time. */
export function startOrphanSweeps(deps: Pick<AppDeps, 'db' | 'storage' | 'config'>, log: SweepLog): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = sweepOrphans(deps, new Date(), log).catch((err) => log.error({ err }, 'orphan sweep failed'));
  };
  run();
  const timer = setInterval(run, ORPHAN_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
