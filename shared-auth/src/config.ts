import type { RuntimeConfig } from 'shared-contracts';

export type { RuntimeConfig } from 'shared-contracts';

export async function loadRuntimeConfig(url = '/runtime-config.json'): Promise<RuntimeConfig> {
  // Not through call(): a static file of the web app itself, read before the api's URL is known.
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`Could not load ${url}: ${res.status}`);
  // Not parsed: a remote's standalone page is served one with no remotes at all (scripts/standalone.mjs).
  return (await res.json()) as RuntimeConfig;
}
