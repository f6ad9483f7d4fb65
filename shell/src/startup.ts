import { loadRemote } from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from '@careloop/shared-auth';
import type { RemoteRoute } from '@careloop/shared-ui';
import { ownerOf } from './owners';
import { fetchRuntimeConfig } from './runtimeConfigFile';
import { REMOTE_NAMES, registerRemoteLocations, type Owner } from './remotes';

// Runs from the entry chunk, before the shared chunks arrive: no shared module may be imported here
// (types only), or webpack would need it eagerly.

/**
 * runtime-config.json, asked for as the page starts, in parallel with the shared chunks (not after
 * them); the remotes are registered as soon as it is read.
 */
export const runtimeConfig: Promise<RuntimeConfig> = fetchRuntimeConfig().then((config) => {
  registerRemoteLocations(config);
  return config;
});

/** The remote this URL will most likely show; null when it depends on a session not yet checked. */
function likelyOwner(pathname: string): Owner | null {
  // shared-auth's TOKEN_KEY: logged in, "/" is the role's dashboard, not the landing.
  const loggedIn = localStorage.getItem('token') !== null;
  if (pathname === '/') return loggedIn ? null : 'public';
  if (['/dashboard', '/prescription'].includes(pathname) || pathname.startsWith('/all-medical-records/')) return null;
  return ownerOf(pathname);
}

/**
 * Fetches the remote entry, its route list and the view for this URL as soon as the remotes are
 * known, beside the shell's shared chunks, instead of after the shell's first render. Only a head
 * start: RemoteView loads the same modules (from cache) and reports any failure itself.
 */
export function preloadCurrentView(): void {
  const owner = likelyOwner(window.location.pathname);
  if (!owner) return;
  runtimeConfig
    .then(() => loadRemote<{ default: RemoteRoute[] }>(`${REMOTE_NAMES[owner]}/routes`))
    .then((mod) => mod?.default.find((route) => route.path === window.location.pathname)?.view())
    .catch(() => undefined);
}
