import type { FastifyInstance } from 'fastify';

/**
 * Every route an app registers, seen by a Fastify `onRoute` hook added BEFORE buildApp registers
 * anything — without touching app.ts: the test file replaces the `fastify` module with a factory
 * that adds the hook to each instance it makes.
 *
 *   jest.mock('fastify', () => jest.requireActual('./route-spy').spyingFastify());
 *
 * (at the top of the test file; jest hoists it above the imports, so app.ts gets the wrapped
 * factory). The routes are kept per root instance: `registeredRoutes(app)`.
 */

export interface SeenRoute {
  method: string;
  url: string;
  /** its schema's operationId: set by api/src/http/route.ts from the contract endpoint */
  operationId?: string;
}

const KEY = Symbol.for('careloop.quality.routeSpy');
type Registry = WeakMap<object, SeenRoute[]>;
const globalStore = globalThis as unknown as Record<symbol, Registry | undefined>;
const registry: Registry = (globalStore[KEY] ??= new WeakMap());

/** The module `fastify` with its factory wrapped; for jest.mock only. */
export function spyingFastify(): unknown {
  const actual = jest.requireActual('fastify');
  const factory = (actual.default ?? actual) as (opts?: unknown) => FastifyInstance;
  function wrapped(opts?: unknown): FastifyInstance {
    const app = factory(opts);
    const seen: SeenRoute[] = [];
    registry.set(app, seen);
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
      for (const method of methods) seen.push({ method: String(method).toUpperCase(), url: route.url, operationId });
    });
    return app;
  }
  Object.assign(wrapped, actual);
  return Object.assign(wrapped, { default: wrapped, fastify: wrapped });
}

/**
 * Documentation only: Swagger UI and its assets (/docs, /docs/*) and the OpenAPI document.
 * HEAD (Fastify's automatic twin of each GET) and OPTIONS (the CORS preflight catch-all) are
 * variants, not routes of their own. NOTHING ELSE is excluded.
 */
export const EXCLUDED_METHODS = ['HEAD', 'OPTIONS'] as const;
export function isExcludedUrl(url: string): boolean {
  return url === '/openapi.json' || url === '/docs' || url.startsWith('/docs/');
}

/** Every non-excluded route the app registered, in registration order (duplicates kept). */
export function seenRoutes(app: FastifyInstance): SeenRoute[] {
  const seen = registry.get(app);
  if (!seen || seen.length === 0) {
    throw new Error(
      'route spy saw no routes: is `jest.mock("fastify", () => jest.requireActual("./route-spy").spyingFastify())` at the top of the test file?',
    );
  }
  return seen.filter((r) => !(EXCLUDED_METHODS as readonly string[]).includes(r.method) && !isExcludedUrl(r.url));
}

/** `METHOD url` of every non-excluded route the app registered, sorted, without duplicates. */
export function registeredRoutes(app: FastifyInstance): string[] {
  const keys = seenRoutes(app).map((r) => `${r.method} ${r.url}`);
  return [...new Set(keys)].sort();
}
