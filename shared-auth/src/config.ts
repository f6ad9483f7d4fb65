/** runtime-config.json, served beside the shell: where the api and the remotes live today. */
export interface RuntimeConfig {
  apiUrl: string;
  remotes: { public: string; patient: string; doctor: string };
}

export async function loadRuntimeConfig(url = '/runtime-config.json'): Promise<RuntimeConfig> {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`Could not load ${url}: ${res.status}`);
  return (await res.json()) as RuntimeConfig;
}
