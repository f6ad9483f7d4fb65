import { RuntimeConfig } from 'shared-contracts';

export type { RuntimeConfig } from 'shared-contracts';

export async function loadRuntimeConfig(url = '/runtime-config.json'): Promise<RuntimeConfig> {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`Could not load ${url}: ${res.status}`);
  return RuntimeConfig.parse(await res.json());
}
