import type { RuntimeConfig } from '@careloop/shared-auth';
import { fetchRuntimeConfig } from './runtimeConfigFile';

// No shared module here (types only): remotes.ts calls it from the entry chunk (startup.ts).

/**
 * A deploy adds a release folder and then points runtime-config.json at it (docs/releases.md). This tab keeps loading the release it started with, whose files stay; when the file names
 * another one, the tab offers a reload and never reloads by itself (a form may be half filled in).
 */
let loaded: RuntimeConfig['remotes'] | undefined;

/** What this tab registered at start-up: the releases it runs until it is reloaded. */
export function rememberLoadedReleases(config: RuntimeConfig): void {
  loaded = { ...config.remotes };
}

/** The remotes whose current release (manifest or entry URL) differs from the one the tab loaded. */
export function changedRemotes(tab: Record<string, string>, current: Record<string, string>): string[] {
  return Object.keys(tab).filter((owner) => current[owner] !== undefined && current[owner] !== tab[owner]);
}

/** At most one read at a time; a failed read (offline, mid-deploy) says nothing is new. */
let reading: Promise<boolean> | undefined;

/** Reads runtime-config.json again: whether a remote has a newer release than the one this tab runs. */
export function newReleaseAvailable(): Promise<boolean> {
  if (!loaded) return Promise.resolve(false);
  const tab = loaded;
  reading ??= fetchRuntimeConfig()
    .then((config) => changedRemotes(tab, config.remotes ?? {}).length > 0)
    .catch(() => false)
    .finally(() => {
      reading = undefined;
    });
  return reading;
}
