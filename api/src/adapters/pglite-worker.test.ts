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

  describe('statements with parameters, parsed once and run by name', () => {
    const raw = () => tdb.adapter.executor!;

    it('answers the same rows and types on every run, and after a schema change the statement read', async () => {
      await raw().executeSql('create table named_probe (id int primary key, at timestamptz, tags text[], doc jsonb)');
      await raw().executeSql('insert into named_probe values ($1, $2, $3, $4)', [
        1,
        '2025-03-01T10:00:00Z',
        ['a', 'b c'],
        { k: [1] },
      ]);
      for (let run = 0; run < 3; run++) {
        const { rows } = await raw().executeSql('select * from named_probe where id = $1 and tags @> $2', [1, ['a']]);
        expect(rows).toEqual([{ id: 1, at: new Date('2025-03-01T10:00:00Z'), tags: ['a', 'b c'], doc: { k: [1] } }]);
      }
      // The statement above was planned for four columns; a fifth changes its result: parsed again.
      await raw().executeSql('alter table named_probe add column note text');
      const { rows } = await raw().executeSql('select * from named_probe where id = $1 and tags @> $2', [1, ['a']]);
      expect(rows).toEqual([expect.objectContaining({ id: 1, note: null })]);
    });

    it('keeps the error of a run (its code too) and runs the next statement normally', async () => {
      await raw().executeSql('create table named_unique (id int primary key)');
      const insert = (id: number) => raw().executeSql('insert into named_unique values ($1)', [id]);
      await insert(1);
      const failed = await insert(1).catch((err: unknown) => err);
      expect(isUniqueViolation(failed)).toBe(true);
      await insert(2);
      expect((await raw().executeSql('select count(*)::int as n from named_unique where id > $1', [0])).rows).toEqual([{ n: 2 }]);
    });

    it('runs more distinct statements than it keeps (the oldest are closed), each still correct', async () => {
      for (let i = 0; i < 520; i++) {
        const { rows } = await raw().executeSql(`select $1::int + ${i} as n`, [1]);
        expect(rows).toEqual([{ n: i + 1 }]);
      }
      expect((await raw().executeSql('select $1::int + 0 as n', [5])).rows).toEqual([{ n: 5 }]);
    });
  });
});

describe('bounded database queue (DB_MAX_QUEUE)', () => {
  it('answers 503 with Retry-After when the queue is full, writes nothing, and serves again once it drains', async () => {
    const tdb = await createTestDb('pglite');
    const { app } = await createTestApp(tdb.adapter, { DB_MAX_QUEUE: '1' });
    try {
      await app.mailQueue.retryNow(); // the kept-mail check the app makes when it starts: done, the queue empty
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
