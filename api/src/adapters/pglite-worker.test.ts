import { sql } from 'drizzle-orm';
import { isUniqueViolation } from '../lib/errors';
import { PASSWORD, createTestApp, createTestDb, uniqueEmail, type TestDb } from '../test/helpers';
import { selectRows, type DbAdapter } from './db';

async function patientsWithEmail(adapter: DbAdapter, email: string): Promise<number> {
  const [row] = await selectRows<{ n: number }>(adapter.db, sql`select count(*)::int as n from patients where email = ${email}`);
  return Number(row.n);
}

// PGlite in its worker thread (pglite-worker.ts): the api's event loop stays free while it works.
describe('embedded PGlite off the request thread', () => {
  let tdb: TestDb;
  beforeAll(async () => {
    tdb = await createTestDb('pglite');
  });
  afterAll(async () => {
    await tdb.cleanup();
  });

  it('answers a request that needs no database while a long statement runs', async () => {
    const { app } = await createTestApp(tdb.adapter);
    try {
      const order: string[] = [];
      const long = tdb.adapter.executor!.executeSql('select pg_sleep(1)').then(() => order.push('long statement'));
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      order.push('request answered');
      await long;
      expect(res.statusCode).toBe(200);
      expect(order).toEqual(['request answered', 'long statement']);
    } finally {
      await app.close();
    }
  });

  it('runs no other statement inside an open transaction', async () => {
    const { db } = tdb.adapter;
    const email = uniqueEmail('patient');
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const rolledBack = db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into patients (name, email, password_hash) values ('Held', ${email}, 'x')`);
        inserted();
        await released;
        throw new Error('roll back');
      })
      .catch(() => order.push('transaction'));
    await insertedYet;
    // On the one shared connection this read would see the uncommitted row if it ran inside the
    // transaction; it waits for the ROLLBACK instead.
    const read = patientsWithEmail(tdb.adapter, email).then((n) => {
      order.push('read');
      return n;
    });
    release();
    expect(await read).toBe(0);
    await rolledBack;
    expect(order).toEqual(['transaction', 'read']);
  });

  it('keeps the PostgreSQL error code (a unique violation is a 409, not a 500)', async () => {
    const email = uniqueEmail('patient');
    const insert = () =>
      tdb.adapter.db.execute(sql`insert into patients (name, email, password_hash) values ('Twice', ${email}, 'x')`);
    await insert();
    const err = await insert().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(err)).toBe(true);
  });
});

describe('bounded database queue (DB_MAX_QUEUE)', () => {
  it('answers 503 with Retry-After when the queue is full, writes nothing, and serves again once it drains', async () => {
    const tdb = await createTestDb('pglite');
    const { app } = await createTestApp(tdb.adapter, { DB_MAX_QUEUE: '1' });
    try {
      const email = uniqueEmail('patient');
      const signup = () =>
        app.inject({
          method: 'POST',
          url: '/patient/signup',
          payload: { name: 'Queued Patient', email, password: PASSWORD },
        });
      const busy = tdb.adapter.executor!.executeSql('select pg_sleep(0.5)');
      expect(tdb.adapter.queueDepth()).toBe(1);
      const refused = await signup();
      await busy;
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toEqual({ error: expect.any(String) });
      expect(await patientsWithEmail(tdb.adapter, email)).toBe(0);

      expect(tdb.adapter.queueDepth()).toBe(0);
      const accepted = await signup();
      expect(accepted.statusCode).toBe(201);
      expect(await patientsWithEmail(tdb.adapter, email)).toBe(1);
    } finally {
      await app.close();
      await tdb.cleanup();
    }
  });
});
