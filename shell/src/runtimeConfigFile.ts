import type { RuntimeConfig } from '@careloop/shared-auth';

// Imports no shared module (types only): it runs from the shell's entry chunk (startup.ts), before
// the shared chunks arrive. shared-auth's loadRuntimeConfig does the same for the remotes' own pages.

/** runtime-config.json as the server has it now (never from the HTTP cache: a deploy changes it). */
export async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  const res = await fetch('/runtime-config.json', { cache: 'no-store' });
  if (!res.ok) throw new Error(`Could not load /runtime-config.json: ${res.status}`);
  return (await res.json()) as RuntimeConfig;
}
