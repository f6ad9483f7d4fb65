// The real thing under test: the built api (embedded PGlite in a temp dir) and the four built web apps.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RuntimeConfig } from '@careloop/shared-contracts';
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- plain ESM script, no types
import { startWebServer } from '../scripts/web-server.mjs';

export const ROOT = resolve(__dirname, '..');
/** E2E_PORT_OFFSET shifts every port, so two checkouts on one machine can run their suites at once. */
export const PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const at = (port: number) => port + PORT_OFFSET;
export const PORTS = { api: at(4100), shell: at(8180), public: at(8181), patient: at(8182), doctor: at(8183) } as const;
/** The mock OpenID Connect issuer standing in for Google (started by the test that needs it). */
export const OIDC_PORT = at(4101);
export const OIDC_ISSUER = `http://localhost:${OIDC_PORT}`;
export const OIDC_CLIENT = { id: 'careloop-e2e', secret: 'e2e-client-secret' };
/** Extra shells that tests start with their own runtime-config.json. */
export const EXTRA_SHELL_PORTS = [at(8190), at(8191)];
/** e2e/tests/releases.spec.ts: a remote's site of immutable release folders, and a remote that never answers. */
export const RELEASES_PORT = at(8192);
export const HANGING_PORT = at(8193);
/** A spare port a test serves something on (shifted like the others). */
export const spare = at;
export const origin = (port: number) => `http://localhost:${port}`;
export const API_URL = origin(PORTS.api);
export const SHELL_URL = origin(PORTS.shell);

/** Remotes by their mf-manifest.json (the default) or, as older configs do, by their remoteEntry.js. */
export const runtimeConfig = (
  remotePorts: { public: number; patient: number; doctor: number },
  entry: 'mf-manifest.json' | 'remoteEntry.js' = 'mf-manifest.json',
): RuntimeConfig => ({
  apiUrl: API_URL,
  remotes: {
    public: `${origin(remotePorts.public)}/${entry}`,
    patient: `${origin(remotePorts.patient)}/${entry}`,
    doctor: `${origin(remotePorts.doctor)}/${entry}`,
  },
});

/**
 * Stops a server started by serveApp. The page under test keeps its keep-alive connections open,
 * and `close()` alone waits for them (a minute of idle timeout): end them too.
 */
export function stopServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export function serveApp(
  app: 'shell' | 'remote-public' | 'remote-patient' | 'remote-doctor',
  port: number,
  runtimeConfigFile: string,
): Promise<Server> {
  return startWebServer({ dir: join(ROOT, app, 'dist'), port, host: '127.0.0.1', runtimeConfigFile });
}

export function writeRuntimeConfig(file: string, config: RuntimeConfig) {
  writeFileSync(file, JSON.stringify(config));
}

export function tempDir(prefix: string) {
  return mkdtempSync(join(tmpdir(), `careloop-${prefix}-`));
}

const METRICS_TOKEN = randomBytes(24).toString('hex');

/**
 * The api's `/metrics` after the browser tests, as an operator's Prometheus reads it: a latency
 * histogram per method, route pattern and status. Throws when there are none beyond the stack's own
 * health polls, a label holds a URL's id instead of the pattern, or a count disagrees with its
 * buckets; answers the requests counted per route.
 */
export async function checkMetrics(): Promise<Map<string, number>> {
  const res = await fetch(`${API_URL}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const text = await res.text();
  const series = (suffix: string) =>
    [...text.matchAll(new RegExp(`^careloop_http_request_duration_seconds_${suffix}\\{([^}]*)\\} (\\S+)$`, 'gm'))].map(
      ([, labels, value]) => ({ labels, value: Number(value) }),
    );
  const perRoute = new Map<string, number>();
  for (const { labels, value } of series('count')) {
    if (/[0-9a-f]{8}-[0-9a-f]{4}-/i.test(labels)) throw new Error(`a metric label holds an id, not a route pattern: ${labels}`);
    // prom-client writes `le` first: `{le="+Inf",method=…}`.
    const inf = series('bucket').find((b) => b.labels === `le="+Inf",${labels}` || b.labels === `${labels},le="+Inf"`);
    if (inf?.value !== value) throw new Error(`the +Inf bucket of {${labels}} is ${inf?.value}, its count ${value}`);
    const route = /method="([^"]+)",route="([^"]+)"/.exec(labels)!;
    perRoute.set(`${route[1]} ${route[2]}`, (perRoute.get(`${route[1]} ${route[2]}`) ?? 0) + value);
  }
  // The stack's own health polls, and whatever the browser asked for.
  if (!perRoute.has('GET /health') || perRoute.size < 2) {
    throw new Error(`per-route histograms missing after the browser tests: ${[...perRoute.keys()].join(', ')}`);
  }
  return perRoute;
}

export async function startApi(dataDir: string): Promise<ChildProcess> {
  // RELEASES_PORT: a release folder's standalone QA page signs in from there (releases.spec.ts).
  const web = [PORTS.shell, PORTS.public, PORTS.patient, PORTS.doctor, ...EXTRA_SHELL_PORTS, RELEASES_PORT].map(origin);
  const api = spawn(process.execPath, [join(ROOT, 'api/dist/server.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(PORTS.api),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WEB_ORIGINS: web.join(','),
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      // The lowest scrypt cost config.ts allows: every sign-up, log-in and re-auth hashes a password,
      // about 1 s of a core each at the default 2^17 on the CI machine, 5 ms at 2^10.
      PASSWORD_HASH_COST: '10',
      WEB_ORIGIN: SHELL_URL,
      API_PUBLIC_URL: API_URL,
      GOOGLE_ISSUER_URL: OIDC_ISSUER,
      GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
      GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
      LOG_LEVEL: 'warn',
      // Read after the suite: every request the browser made, per route (checkMetrics).
      METRICS_TOKEN,
    },
  });
  // Up to 2 minutes: a fresh PGlite migrates first, and on a busy shared machine that took 40 s.
  for (let i = 0; i < 600; i++) {
    if (api.exitCode !== null) throw new Error(`api exited with ${api.exitCode}`);
    const ok = await fetch(`${API_URL}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return api;
    await new Promise((r) => setTimeout(r, 200));
  }
  api.kill();
  throw new Error('api did not become healthy');
}
