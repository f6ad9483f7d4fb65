jest.mock('fastify', () => jest.requireActual('../quality/route-spy').spyingFastify());

import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, routePattern, type Endpoint } from '@careloop/shared-contracts';
import { ENDPOINT_ROUTES } from '@careloop/shared-contracts/routes';
import { seenRoutes } from '../quality/route-spy';
import { createTestApp, createTestDb, type TestApp, type TestDb } from '../test/helpers';

/** The api and the shared contract (shared-contracts ENDPOINTS) describe the same endpoints. */
describe('endpoint contract', () => {
  let tdb: TestDb;
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    tdb = await createTestDb('pglite', { migrate: false });
    t = await createTestApp(tdb.adapter, { API_PUBLIC_URL: 'https://api.example.org' });
    app = t.app;
  });
  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  it('registers every route from its ENDPOINTS entry (route()), and every entry exactly once', () => {
    // So each route has its endpoint (found by operationId: http/openapi.ts) and each endpoint its route.
    // A route written by hand has no operationId, or one that names no endpoint of this method and path.
    const seen = seenRoutes(app).map((r) => ({ route: `${r.method} ${r.url}`, operationId: r.operationId }));
    const notFromContract = seen.filter(({ route, operationId }) => {
      const e = operationId === undefined ? undefined : (ENDPOINTS as Record<string, Endpoint>)[operationId];
      return !e || route !== `${e.method} ${routePattern(e.path)}`;
    });
    expect(notFromContract).toEqual([]);
    expect(seen.map((r) => r.operationId).sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  it('derives the OpenAPI document from the contract: servers, operationId, security, unambiguous paths', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.servers).toEqual([{ url: 'https://api.example.org' }]);
    const operations: { operationId?: string; security?: unknown; parameters?: { in: string; name: string }[] }[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, (typeof operations)[number]>>)) {
      for (const op of Object.values(item)) {
        operations.push(op);
        // Every path parameter is in the path (no `role` parameter outside it).
        for (const p of op.parameters ?? []) if (p.in === 'path') expect(path).toContain(`{${p.name}}`);
      }
    }
    expect(operations.map((o) => o.operationId).sort()).toEqual(Object.keys(ENDPOINTS).sort());
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(doc.paths['/patient/me'].get.security).toEqual([{ bearerAuth: [] }]);
    // SPEC's POST /prescription/{patientId} and GET /prescription/{id}: one name, one path (and its stop).
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/prescription/'))).toEqual([
      '/prescription/{id}',
      '/prescription/{id}/stop',
    ]);
    expect(Object.keys(doc.paths['/prescription/{id}']).sort()).toEqual(['get', 'post']);
  });

  it('documents every endpoint in /openapi.json as the contract declares it', async () => {
    type Operation = {
      operationId?: string;
      summary?: string;
      tags?: string[];
      security?: unknown;
      parameters?: { in: string; name: string }[];
      responses?: Record<string, unknown>;
    };
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const mismatches: string[] = [];
    for (const e of Object.values(ENDPOINTS) as Endpoint[]) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()];
      const statuses = [e.status, ...e.errors, ...Object.keys(e.otherResponses ?? {}).map(Number)];
      const actual = op && {
        operationId: op.operationId,
        summary: op.summary,
        tags: op.tags,
        security: op.security,
        pathParameters: (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
        statuses: Object.keys(op.responses ?? {})
          .map(Number)
          .sort(),
      };
      const expected = {
        operationId: e.operationId,
        summary: e.summary,
        tags: [...e.tags],
        security: e.access === 'public' ? [] : [{ bearerAuth: [] }],
        pathParameters: [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(),
        statuses: [...new Set(statuses)].sort(),
      };
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        mismatches.push(`${e.operationId}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('guards a route by the roles its endpoint names', async () => {
    // /patient/audit is patient-only in the contract: no token → 401, before any input is read.
    const res = await app.inject({ method: 'GET', url: '/patient/audit?page=oops' });
    expect(res.statusCode).toBe(401);
  });
});

/** What shared-auth calls the api by (shared-contracts/routes) is ENDPOINTS' own method and path. */
describe('ENDPOINT_ROUTES', () => {
  it('is generated from ENDPOINTS and up to date (else: npm run generate:routes)', () => {
    const derived = Object.fromEntries(
      Object.entries(ENDPOINTS as Record<string, Endpoint>).map(([name, e]) => [
        name,
        { method: e.method, path: e.path, status: e.status, json: e.response !== null && e.status !== 204 },
      ]),
    );
    expect(ENDPOINT_ROUTES).toEqual(derived);
    expect(Object.keys(ENDPOINT_ROUTES)).toEqual(Object.keys(ENDPOINTS));
  });
});
