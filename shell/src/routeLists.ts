import { useSyncExternalStore } from 'react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import type { RemoteRoute } from '@careloop/shared-ui';
import { REMOTE_NAMES, type Owner } from './remotes';
import { isRemoteLoadFailure } from './federationPlugin';
import { incompatibleRemote, markReported } from './sharedVersions';

/**
 * Each remote's route list (remote-x/src/routes.ts, exposed as `routes`): one load per remote and page,
 * shared by the routes it serves (RemoteView) and the sidebar entries it declares (Sidebar). A failed
 * load is forgotten, so the next ask (Retry) goes to the network again.
 */
const loads = new Map<Owner, Promise<RemoteRoute[]>>();

/** The lists loaded so far; replaced, never changed in place, so React sees each change. */
let loaded: ReadonlyMap<Owner, RemoteRoute[]> = new Map();
const listeners = new Set<() => void>();

export function loadRouteList(owner: Owner): Promise<RemoteRoute[]> {
  let load = loads.get(owner);
  if (!load) {
    load = (async () => {
      try {
        const mod = await loadRemote<{ default: RemoteRoute[] }>(`${REMOTE_NAMES[owner]}/routes`);
        // careloopFederationPlugin's fallback after its retries: the caller's contained panel, with the cause.
        if (isRemoteLoadFailure(mod)) {
          // Refused at registration for a shared version: logged there once, with both versions.
          if (incompatibleRemote(REMOTE_NAMES[owner])) markReported(mod.remoteLoadFailed);
          throw mod.remoteLoadFailed;
        }
        if (!Array.isArray(mod?.default)) throw new Error(`${REMOTE_NAMES[owner]}/routes did not load`);
        loaded = new Map(loaded).set(owner, mod.default);
        listeners.forEach((notify) => notify());
        return mod.default;
      } catch (err) {
        loads.delete(owner);
        throw err;
      }
    })();
    loads.set(owner, load);
  }
  return load;
}

function subscribe(notify: () => void) {
  listeners.add(notify);
  return () => listeners.delete(notify);
}

/** The route lists this page has loaded, by owner; a list that failed is not among them. */
export function useLoadedRouteLists(): ReadonlyMap<Owner, RemoteRoute[]> {
  return useSyncExternalStore(
    subscribe,
    () => loaded,
    () => loaded,
  );
}

/** Forgets every list, as a new page load would. */
export function forgetLoadedRouteLists() {
  loads.clear();
  loaded = new Map();
  listeners.forEach((notify) => notify());
}
