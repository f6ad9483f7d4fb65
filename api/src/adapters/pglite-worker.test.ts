import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { isUniqueViolation } from '../lib/errors';
import { PASSWORD, createTestApp, createTestDb, uniqueEmail, type TestDb } from '../test/helpers';
import { selectRows, type DbAdapter } from './db';
import { PgliteWorker } from './pglite-worker';

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

// The one connection's turns (PgliteWorker): what a transaction holds up, and for how long.
describe('statements and transactions on the one embedded connection', () => {
  let dir: string;
  let client: PgliteWorker;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-pglite-turns-'));
    client = await PgliteWorker.open(dir);
    await client.exec('create table turns (v text)');
  });
  afterAll(async () => {
    await client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands every statement that waited for a transaction to the database together when it ends', async () => {
    // One at a time, each a round trip to a busy api thread, they drained slower than requests
    // arrived: every reminder sweep's transaction left requests waiting seconds (npm run bench).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query('insert into turns values ($1)', ['in the transaction']);
      opened();
      await released;
    });
    await open;
    const waiting = Array.from({ length: 50 }, (_, i) => client.query('select $1::int as n', [i]));
    const whileOpen = { inFlight: client.inFlight, queueDepth: client.queueDepth };
    release();
    await transaction;
    expect(whileOpen).toEqual({ inFlight: 0, queueDepth: 51 }); // none runs inside the open transaction
    expect(client.inFlight).toBe(50);
    expect((await Promise.all(waiting)).map((r) => r.rows[0].n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(client.queueDepth).toBe(0);
  });

  it('keeps the order statements and transactions were asked for in', async () => {
    const order: string[] = [];
    const steps: Promise<unknown>[] = [];
    const first = client.transaction(async (tx) => {
      await tx.query('select pg_sleep($1)', [0.05]);
      order.push('transaction 1');
    });
    steps.push(
      first,
      client.query('select $1::text as s', ['a']).then(() => order.push('statement a')),
    );
    steps.push(client.transaction(async () => void order.push('transaction 2')));
    steps.push(client.query('select $1::text as s', ['b']).then(() => order.push('statement b')));
    await Promise.all(steps);
    expect(order).toEqual(['transaction 1', 'statement a', 'transaction 2', 'statement b']);
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
