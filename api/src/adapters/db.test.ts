import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PgProxy, sleep, TEST_DATABASE_URL } from '../test/faults-kit';
import { BACKENDS, countRows, createTestDb } from '../test/helpers';
import { openDatabase, selectRows } from './db';

describe.each(BACKENDS)('database adapter on %s', (backend) => {
  it('runs migrations idempotently, also from two replicas at once', async () => {
    const tdb = await createTestDb(backend);
    try {
      await tdb.adapter.db.execute(
        sql`insert into patients (name, email, password_hash) values ('Keep Me', 'keep@example.com', 'x')`,
      );
      await tdb.adapter.migrate(); // second run: nothing to do, data kept
      if (backend === 'postgres') {
        // Two replicas starting together: the advisory lock serialises them.
        const other = await tdb.reopen();
        await Promise.all([tdb.adapter.migrate(), other.migrate()]);
      }
      expect(await countRows(tdb.adapter, 'patients')).toBe(1);
      const [applied] = await selectRows<{ n: number }>(
        tdb.adapter.db,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      const journal = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../drizzle/meta/_journal.json'), 'utf8'));
      expect(Number(applied.n)).toBe(journal.entries.length);
    } finally {
      await tdb.cleanup();
    }
  });
});

describe('PGlite raw SQL executor (pg-boss)', () => {
  it('answers the rows of every statement of a script, not only the last one', async () => {
    const tdb = await createTestDb('pglite', { migrate: false });
    try {
      const { rows } = await tdb.adapter.executor!.executeSql('begin; select 1 as locked; select 2 as claimed; commit;');
      expect(rows).toEqual([{ locked: 1 }, { claimed: 2 }]);
      expect((await tdb.adapter.executor!.executeSql('select $1::int as n', [3])).rows).toEqual([{ n: 3 }]);
    } finally {
      await tdb.cleanup();
    }
  });
});

describe('embedded PGlite data directory', () => {
  it('creates missing parent directories', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-api-test-'));
    const nested = path.join(root, 'deeper', 'still');
    const a = await openDatabase({ dataDir: nested });
    try {
      expect(fs.existsSync(path.join(nested, 'db'))).toBe(true);
    } finally {
      await a.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a second instance on the same directory, and allows one after close', async () => {
    const tdb = await createTestDb('pglite', { migrate: false });
    try {
      await expect(openDatabase({ dataDir: tdb.dataDir! })).rejects.toThrow(/already in use by process \d+/);
      await tdb.adapter.close();
      const again = await openDatabase({ dataDir: tdb.dataDir! });
      await again.close();
    } finally {
      await tdb.cleanup();
    }
  });

  it('takes over a lock file left by a process that is gone', async () => {
    const tdb = await createTestDb('pglite', { migrate: false });
    try {
      await tdb.adapter.close();
      fs.writeFileSync(path.join(tdb.dataDir!, 'db.lock'), '999999999'); // no such pid
      const again = await openDatabase({ dataDir: tdb.dataDir! });
      expect(fs.readFileSync(path.join(tdb.dataDir!, 'db.lock'), 'utf8')).toBe(String(process.pid));
      await again.close();
      expect(fs.existsSync(path.join(tdb.dataDir!, 'db.lock'))).toBe(false);
    } finally {
      await tdb.cleanup();
    }
  });
});

(TEST_DATABASE_URL ? describe : describe.skip)('PostgreSQL connection lost mid-transaction', () => {
  it('fails that transaction and keeps the process up (a checked-out connection has an error listener)', async () => {
    const proxy = PgProxy.forUrl(TEST_DATABASE_URL!);
    await proxy.start();
    const adapter = await openDatabase({ databaseUrl: proxy.urlFor(TEST_DATABASE_URL!), dataDir: '' });
    const uncaught: unknown[] = [];
    const keep = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', keep);
    try {
      let inside!: () => void;
      const holding = new Promise<void>((resolve) => (inside = resolve));
      const tx = adapter.db.transaction(async (t) => {
        await t.execute(sql`select 1`);
        inside();
        await sleep(300); // the connection is checked out, with no query running, when it is cut
        await t.execute(sql`select 2`);
      });
      await holding;
      await proxy.outage('refuse');
      await expect(tx).rejects.toThrow();
      await sleep(50);
      expect(uncaught).toEqual([]);
      await proxy.recover();
      expect(await selectRows<{ n: number }>(adapter.db, sql`select 3 as n`)).toEqual([{ n: 3 }]);
    } finally {
      process.off('uncaughtException', keep);
      await adapter.close();
      await proxy.close();
    }
  });
});
