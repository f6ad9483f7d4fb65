import { DrizzleQueryError } from 'drizzle-orm';
import type { DbAdapter } from '../adapters/db';
import { isDatabaseUnavailable, isStorageFull } from '../lib/errors';
import { createTestApp, createTestDb, type TestDb } from '../test/helpers';

/*
 * The 503 mapping without a real outage (always runs; the real outage is faults.db-outage.test.ts):
 * which errors count as "database unavailable", and what the error handler and /health answer.
 */

const UNAVAILABLE = { error: 'Service temporarily unavailable. Please try again shortly.' };

function coded(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', coded('read ECONNRESET', 'ECONNRESET')],
    ['admin shutdown', coded('terminating connection due to administrator command', '57P01')],
    ['crash shutdown', coded('terminating connection due to crash of another server process', '57P02')],
    ['cannot connect now', coded('the database system is starting up', '57P03')],
    ['connection exception class 08', coded('connection failure', '08006')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    ['dropped mid-query', new Error('Connection terminated unexpectedly')],
    ['dead client', new Error('Client has encountered a connection error and is not queryable')],
    ['wrapped by drizzle', new DrizzleQueryError('select 1', [], coded('connect ECONNREFUSED', 'ECONNREFUSED'))],
    ['several addresses tried', new AggregateError([coded('a', 'ECONNREFUSED'), coded('b', 'ECONNREFUSED')], 'connect failed')],
  ])('%s → yes', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a bug', new Error('undefined is not a function')],
    ['unique violation', new DrizzleQueryError('insert', [], coded('duplicate key', '23505'))],
    ['syntax error', coded('syntax error at or near "x"', '42601')],
    ['nothing', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('%s → no', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it('stops on a cause cycle', () => {
    const e = new Error('loop') as Error & { cause?: unknown };
    e.cause = e;
    expect(isDatabaseUnavailable(e)).toBe(false);
  });
});

describe('error handler and /health while the database is unreachable', () => {
  let tdb: TestDb;
  beforeAll(async () => {
    tdb = await createTestDb('pglite');
  });
  afterAll(async () => {
    await tdb?.cleanup();
  });

  it('answers 503 { error } with Retry-After for an unreachable database, 500 for anything else', async () => {
    const t = await createTestApp(tdb.adapter, {}, (app) => {
      app.get('/refused', async () => {
        throw new DrizzleQueryError('select 1', [], coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'));
      });
      app.get('/timeout', async () => {
        throw new Error('timeout exceeded when trying to connect');
      });
      app.get('/bug', async () => {
        throw new DrizzleQueryError('select 1', [], coded('relation "x" does not exist', '42P01'));
      });
    });
    try {
      for (const url of ['/refused', '/timeout']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual(UNAVAILABLE);
        expect(res.headers['retry-after']).toBe('5');
      }
      const bug = await t.app.inject({ method: 'GET', url: '/bug' });
      expect(bug.statusCode).toBe(500);
      expect(bug.json()).toEqual({ error: 'Internal server error' });
      expect(bug.headers['retry-after']).toBeUndefined();
    } finally {
      await t.app.close();
    }
  });

  it('GET /health answers 503 { status: unavailable } when the database query fails', async () => {
    const failing = new Proxy(tdb.adapter.db, {
      get(target, prop, receiver) {
        if (prop === 'execute') return async () => Promise.reject(coded('connect ECONNREFUSED', 'ECONNREFUSED'));
        return Reflect.get(target, prop, receiver);
      },
    });
    const adapter = { ...tdb.adapter, db: failing } as DbAdapter;
    const t = await createTestApp(adapter);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await t.app.close();
    }
  });
});

describe('isStorageFull', () => {
  it.each([
    ['disk full (node)', coded('ENOSPC: no space left on device, write', 'ENOSPC')],
    ['quota exceeded (node)', coded('EDQUOT: disk quota exceeded, write', 'EDQUOT')],
    // What PGlite answers when its data directory's disk is full (seen on a full tmpfs).
    [
      'PGlite disk_full, wrapped by drizzle',
      new DrizzleQueryError('insert', [], coded('could not extend file "base/5/16833": No space left on device', '53100')),
    ],
    ['PostgreSQL configuration_limit_exceeded (temp_file_limit)', coded('temporary file size exceeds temp_file_limit', '53400')],
  ])('%s → yes', (_name, err) => {
    expect(isStorageFull(err)).toBe(true);
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it.each([
    ['out of memory', coded('out of memory', '53200')],
    ['too many connections (unavailable instead)', coded('sorry, too many clients already', '53300')],
    ['permission denied', coded('EACCES: permission denied', 'EACCES')],
    ['a bug', new Error('ENOSPC is only text here')],
  ])('%s → no', (_name, err) => {
    expect(isStorageFull(err)).toBe(false);
  });
});

describe('error handler on a full disk', () => {
  let tdb: TestDb;
  beforeAll(async () => {
    tdb = await createTestDb('pglite');
  });
  afterAll(async () => {
    await tdb?.cleanup();
  });

  it('answers 507 { error: Storage is full; nothing was saved }, without Retry-After', async () => {
    const t = await createTestApp(tdb.adapter, {}, (app) => {
      app.post('/fs-full', async () => {
        throw coded('ENOSPC: no space left on device, write', 'ENOSPC');
      });
      app.post('/db-full', async () => {
        throw new DrizzleQueryError('insert', [], coded('could not extend file', '53100'));
      });
    });
    try {
      for (const url of ['/fs-full', '/db-full']) {
        const res = await t.app.inject({ method: 'POST', url, payload: { a: 1 } });
        expect(res.statusCode).toBe(507);
        expect(res.json()).toEqual({ error: 'Storage is full; nothing was saved' });
        expect(res.headers['retry-after']).toBeUndefined();
        // The body was read whole: the connection stays usable.
        expect(res.headers.connection).not.toBe('close');
      }
    } finally {
      await t.app.close();
    }
  });
});
