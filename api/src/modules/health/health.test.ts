import fs from 'node:fs';
import path from 'node:path';
import { outboxDir } from '../../adapters/mail';
import { createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';

/*
 * /health/live (no I/O) and /health/ready (= /health): the database answers AND the data folders
 * can be written. A folder that cannot take a write is made here by putting a file where the
 * folder should be (a real failed write: root passes permission checks, a file in the way does not).
 */
describe('health checks', () => {
  let tdb: TestDb;
  let t: TestApp;
  beforeAll(async () => {
    tdb = await createTestDb('pglite');
    t = await createTestApp(tdb.adapter);
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('all answer 200 { status: ok } when the database answers and the folders can be written; probes leave no file', async () => {
    for (const url of ['/health/live', '/health/ready', '/health']) {
      const res = await get(url);
      expect([url, res.statusCode, res.json()]).toEqual([url, 200, { status: 'ok' }]);
    }
    expect(fs.readdirSync(outboxDir(t.dataDir)).filter((f) => f.startsWith('.ready-probe'))).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'files')).filter((f) => f.startsWith('.ready-probe'))).toEqual([]);
  });

  it.each([
    ['the mail outbox', (dir: string) => outboxDir(dir)],
    ['the file store', (dir: string) => path.join(dir, 'files')],
  ])('ready and /health answer 503 while %s cannot be written, live stays 200; ready again after', async (_name, folderOf) => {
    const folder = folderOf(t.dataDir);
    fs.rmSync(folder, { recursive: true, force: true });
    fs.writeFileSync(folder, 'in the way');
    try {
      for (const url of ['/health/ready', '/health']) {
        const res = await get(url);
        expect([url, res.statusCode, res.json(), res.headers['retry-after']]).toEqual([url, 503, { status: 'unavailable' }, '5']);
      }
      expect((await get('/health/live')).statusCode).toBe(200);
    } finally {
      fs.rmSync(folder, { force: true });
    }
    expect((await get('/health/ready')).statusCode).toBe(200);
  });
});
