import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { checkManifest } from './sharedVersions';

/**
 * A remote that accepts the connection and never answers must show its contained panel within 5 s
 * (issue 14), the shell's own start-up included: the runtime's limit for a remote entry is 20 s and a
 * manifest fetch has none. A manifest is a few KB, a remote entry tens: enough on a slow phone.
 */
export const REMOTE_DEADLINE_MS = 2500;
/** Waits before the 2nd and 3rd try of a failed fetch: a remote mid-switch or a dropped connection. */
export const RETRY_DELAYS_MS = [300, 900];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a failure may pass on a second try: the network or the server, not a missing file. */
const transient = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * A fetch tried again after the delays on a network error or a 5xx, all within `deadlineMs` (the body
 * too: a server may send headers and then stall). Resolves to the last answer, or rejects.
 */
export async function fetchWithRetry(
  url: string,
  init: RequestInit = {},
  { deadlineMs = REMOTE_DEADLINE_MS, delaysMs = RETRY_DELAYS_MS } = {},
): Promise<Response> {
  const deadline = AbortSignal.timeout(deadlineMs);
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url, { ...init, signal: deadline });
      const body = await res.arrayBuffer();
      const answer = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
      if (!transient(res.status) || attempt >= delaysMs.length) return answer;
    } catch (err) {
      if (deadline.aborted) throw new Error(`${url} did not answer within ${deadlineMs} ms`, { cause: err });
      if (attempt >= delaysMs.length) throw err;
    }
    await sleep(delaysMs[attempt]);
  }
}

/**
 * A view's chunk and its modules: all tries of one navigation must settle within this, or the view's
 * panel offers Retry (a chunk is larger than a manifest, and the remote's own chunkLoadTimeout gives up
 * on a silent request sooner: webpack.common.ts).
 */
export const VIEW_DEADLINE_MS = 6000;

/**
 * `load` tried again after each delay when it rejects (a view's chunk: webpack fetches it anew each time),
 * all within `deadlineMs`: one try plus one per delay at most, none started after the deadline.
 * `final(err)` says a failure no try can mend (a shared version the page cannot give): no further try.
 */
export function withRetries<T>(
  load: () => Promise<T>,
  {
    delaysMs = RETRY_DELAYS_MS,
    deadlineMs = VIEW_DEADLINE_MS,
    final = (): boolean => false,
  }: { delaysMs?: number[]; deadlineMs?: number; final?: (err: unknown) => boolean } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new Error(`did not load within ${deadlineMs} ms`));
    }, deadlineMs);
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    void (async () => {
      for (let attempt = 0; !settled; attempt++) {
        try {
          const value = await load();
          finish(() => resolve(value));
          return;
        } catch (err) {
          if (attempt >= delaysMs.length || final(err)) {
            finish(() => reject(err));
            return;
          }
          await sleep(delaysMs[attempt]);
        }
      }
    })();
  });
}

/** What loadRemote hands back for a remote that failed: RemoteView shows the contained panel for it. */
export interface RemoteLoadFailure {
  remoteLoadFailed: unknown;
}

export function isRemoteLoadFailure(mod: unknown): mod is RemoteLoadFailure {
  return typeof mod === 'object' && mod !== null && 'remoteLoadFailed' in mod;
}

function scriptElement(url: string, attrs: Record<string, unknown> = {}): HTMLScriptElement {
  const script = document.createElement('script');
  for (const [name, value] of Object.entries(attrs))
    if (name === 'async' || name === 'defer') script[name] = Boolean(value);
    else script.setAttribute(name, String(value));
  script.src = url;
  return script;
}

/**
 * Retries, a deadline, then a fallback, for every remote the shell loads. Our own rather than
 * @module-federation/retry-plugin: its only release (0.17.1) is built on @module-federation/sdk 0.17.1,
 * a second copy of the SDK beside our runtime's 2.9.2, for what these few lines do.
 */
export function careloopFederationPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'careloop-releases',
    // The remote's mf-manifest.json, checked against the page's shared versions before any of its code runs.
    fetch: async (url, init, remote) => {
      const answer = await fetchWithRetry(url, init);
      if (remote?.name && answer.ok) {
        checkManifest(
          remote.name,
          await answer
            .clone()
            .json()
            .catch(() => undefined),
        );
      }
      return answer;
    },
    // remoteEntry.js: a <script>, which the runtime waits for up to this long. The runtime applies no
    // attributes to a script a plugin answers with, so they are set here as it would.
    createScript: ({ url, attrs }) => ({ script: scriptElement(url, attrs), timeout: REMOTE_DEADLINE_MS }),
    // A failed load resolves to a marked module (not a throw out of the runtime); only for loadRemote
    // itself ('onLoad'): at the other stages the runtime would take our answer for a manifest or a request.
    errorLoadRemote: ({ lifecycle, error }) =>
      lifecycle === 'onLoad' ? ({ remoteLoadFailed: error } satisfies RemoteLoadFailure) : undefined,
  };
}
