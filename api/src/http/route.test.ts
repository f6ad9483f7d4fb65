import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { endpoint, MessageResponse } from '@careloop/shared-contracts';
import { z } from 'zod';
import { HttpError } from '../lib/errors';
import { createTestApp, createTestDb, signup, type TestApp, type TestDb } from '../test/helpers';
import { route } from './route';

// Endpoints of this test only, with what the route files not yet on route() need.
const Body = z.strictObject({ n: z.number() });
const guarded = (path: string) =>
  ({
    ...endpoint({
      method: 'POST',
      path,
      summary: 'test',
      tags: ['test'],
      access: ['doctor'],
      body: Body,
      status: 200,
      response: MessageResponse,
      errors: [400, 401, 403],
    }),
    operationId: path,
  }) as const;
const inThisTest = { summary: 'test', tags: ['test'], access: 'public' } as const;
const ownValidation = {
  ...endpoint({
    ...inThisTest,
    method: 'GET',
    path: '/t/own-validation',
    query: z.strictObject({ kind: z.literal('pdf') }),
    status: 200,
    response: MessageResponse,
    errors: [400],
  }),
  operationId: 'ownValidation',
};
const limited = {
  ...endpoint({ ...inThisTest, method: 'GET', path: '/t/limited', status: 200, response: MessageResponse, errors: [429] }),
  operationId: 'limited',
};
const echo = {
  ...endpoint({
    ...inThisTest,
    method: 'PUT',
    path: '/t/echo/{name}',
    params: z.object({ name: z.string() }),
    status: 200,
    response: null,
    errors: [],
  }),
  operationId: 'echo',
};

describe('route(): registering from an endpoint', () => {
  let tdb: TestDb;
  let t: TestApp;
  let app: FastifyInstance;
  let doctorToken: string;
  let patientToken: string;

  beforeAll(async () => {
    tdb = await createTestDb('pglite');
    t = await createTestApp(tdb.adapter, {}, (base) => {
      const zapp = base.withTypeProvider<ZodTypeProvider>();
      const deps = {
        db: tdb.adapter,
        clock: { now: () => new Date() },
        config: { sessionMaxHours: 12, sessionIdleMinutes: 15 },
      } as never;
      route(zapp, deps, guarded('/t/on-request'), async (request) => ({ message: `n=${request.body.n}` }));
      route(zapp, deps, guarded('/t/pre-handler'), async (request) => ({ message: `n=${request.body.n}` }), {
        guardAt: 'preHandler',
      });
      route(
        zapp,
        deps,
        ownValidation,
        async (request) => {
          if (request.validationError) throw new HttpError(400, 'Only PDF, please');
          return { message: 'ok' };
        },
        { attachValidation: true },
      );
      route(zapp, deps, limited, async () => ({ message: 'ok' }), { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } });
      // A scope of its own: a raw body in, a stream out (the local file routes).
      void zapp.register(async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
        route(scope.withTypeProvider<ZodTypeProvider>(), deps, echo, async (request, reply) => {
          reply.header('content-type', 'application/pdf').header('x-name', request.params.name);
          return reply.send(Readable.from(request.raw));
        });
      });
    });
    app = t.app;
    doctorToken = (await signup(app, 'doctor')).token;
    patientToken = (await signup(app, 'patient')).token;
  });
  afterAll(async () => {
    await app?.close();
    await tdb?.cleanup();
  });

  const post = (url: string, payload: unknown, token?: string) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });

  it("admits the endpoint's roles only, with its typed body", async () => {
    expect((await post('/t/on-request', { n: 1 }, doctorToken)).json()).toEqual({ message: 'n=1' });
    expect((await post('/t/on-request', { n: 1 }, patientToken)).statusCode).toBe(403);
    expect((await post('/t/on-request', { n: 1 })).statusCode).toBe(401);
    expect((await post('/t/on-request', { n: 'x' }, doctorToken)).statusCode).toBe(400);
  });

  it('guards on onRequest by default (before validation), on preHandler when asked (after)', async () => {
    expect((await post('/t/on-request', { n: 'x' })).statusCode).toBe(401);
    expect((await post('/t/pre-handler', { n: 'x' })).statusCode).toBe(400);
    expect((await post('/t/pre-handler', { n: 2 })).statusCode).toBe(401);
  });

  it('lets a handler answer its own validation errors (attachValidation)', async () => {
    const res = await app.inject({ method: 'GET', url: '/t/own-validation?kind=txt' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Only PDF, please' });
    expect((await app.inject({ method: 'GET', url: '/t/own-validation?kind=pdf' })).statusCode).toBe(200);
  });

  it('applies route config (a rate limit)', async () => {
    expect((await app.inject({ method: 'GET', url: '/t/limited' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/t/limited' })).statusCode).toBe(429);
  });

  it('serves a raw body and a stream in a scope with its own content-type parser', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/t/echo/a.pdf',
      headers: { 'content-type': 'application/pdf' },
      payload: '%PDF-1.4',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-name']).toBe('a.pdf');
    expect(res.body).toBe('%PDF-1.4');
  });
});
