import type { RuntimeConfig } from '@careloop/shared-contracts';
import { z } from 'zod';

// The pages' CSP allows no eval (scripts/web-server.mjs). zod compiles parsers with
// `new Function` when it may, and even its probe for that is reported as a CSP violation:
// every web app runs zod without it (the setting is global, shared by every copy of zod).
z.config({ jitless: true });

export type { RuntimeConfig } from '@careloop/shared-contracts';

export async function loadRuntimeConfig(url = '/runtime-config.json'): Promise<RuntimeConfig> {
  // Not through call(): a static file of the web app itself, read before the api's URL is known.
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`Could not load ${url}: ${res.status}`);
  // Not parsed: a remote's standalone page is served one with no remotes at all (scripts/standalone.mjs).
  return (await res.json()) as RuntimeConfig;
}
