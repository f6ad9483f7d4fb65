import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { eq } from 'drizzle-orm';
import { MedicalFilesResponse, UploadUrlResponse } from '@careloop/shared-contracts';
import { openDatabase, type DbAdapter } from '../../adapters/db';
import { outboxDir } from '../../adapters/mail';
import { createStorage } from '../../adapters/storage';
import { medicalFiles } from '../../db/schema';
import { account, type Account } from '../../test/clinical';
import { PgProxy, sleep, TEST_DATABASE_URL } from '../../test/faults-kit';
import { local, PDF } from '../../test/files';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';
import { ORPHAN_MIN_AGE_MS, sweepOrphans } from './orphan-sweep';

/*
 * An upload's file is final only with its stored row (FAULTS.md "Uploads: a file is final only
 * with its row"), and what interrupted work leaves on disk is swept ("Orphan sweeps").
 */

async function newUpload(t: TestApp, patient: Account) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=scan.pdf`,
    headers: bearer(patient.token),
  });
  expect(res.statusCode).toBe(200);
  return UploadUrlResponse.parse(res.json());
}
const put = (t: TestApp, url: string, payload: Buffer | PassThrough) =>
  t.app.inject({ method: 'PUT', url: local(url), headers: { 'content-type': 'application/pdf' }, payload });
const listed = async (t: TestApp, patient: Account) =>
  MedicalFilesResponse.parse(
    (await t.app.inject({ method: 'GET', url: '/medical-record', headers: bearer(patient.token) })).json(),
  );
const filesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

(TEST_DATABASE_URL ? describe : describe.skip)('an upload whose row cannot be stored (PostgreSQL unreachable)', () => {
  let tdb: TestDb;
  let proxy: PgProxy;
  let viaProxy: DbAdapter;
  let t: TestApp;
  beforeAll(async () => {
    tdb = await createTestDb('postgres');
    proxy = PgProxy.forUrl(tdb.adapter.connectionString!);
    await proxy.start();
    viaProxy = await openDatabase({ databaseUrl: proxy.urlFor(tdb.adapter.connectionString!), dataDir: '' });
    t = await createTestApp(viaProxy);
  });
  afterAll(async () => {
    await t?.app.close();
    await viaProxy?.close();
    await proxy?.close();
    await tdb?.cleanup();
  });

  it('answers 503 and keeps nothing final; the same URL then stores it, and it is listed', async () => {
    const patient = await account(t, 'patient');
    const { uploadUrl, key } = await newUpload(t, patient);
    const patientDir = path.join(t.dataDir, 'files', patient.id);
    const tmpDir = path.join(t.dataDir, 'files', '.tmp');

    // The row is found and the body streams in; the database goes away before the last byte.
    const body = new PassThrough();
    const answer = put(t, uploadUrl, body);
    body.write(PDF.subarray(0, 10));
    for (let i = 0; i < 200 && filesIn(tmpDir).length === 0; i++) await sleep(10);
    expect(filesIn(tmpDir)).toHaveLength(1);
    await proxy.outage('refuse');
    body.end(PDF.subarray(10));
    const res = await answer;
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(filesIn(patientDir)).toEqual([]);
    expect(filesIn(tmpDir)).toEqual([]);

    await proxy.recover();
    const retry = await put(t, uploadUrl, PDF);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ message: 'File upload successful', key });
    expect(filesIn(patientDir)).toEqual([path.basename(key)]);
    expect(fs.readFileSync(path.join(t.dataDir, 'files', key))).toEqual(PDF);
    const files = await listed(t, patient);
    expect(files.fileName).toEqual(['scan.pdf']);
    expect(files.presignedUrl).toHaveLength(1);
    // Single use still holds once stored.
    expect((await put(t, uploadUrl, PDF)).statusCode).toBe(409);
  });
});

describe.each(BACKENDS)('orphan sweep on %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter);
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  it('removes stale temp files and unstored files; keeps stored files and anything recent', async () => {
    const patient = await account(t, 'patient');
    const { storage } = createStorage(t.config, t.clock); // the app's store: same DATA_DIR and key file
    const root = path.join(t.dataDir, 'files');
    const old = new Date(Date.now() - ORPHAN_MIN_AGE_MS - 60_000);
    const plant = (p: string, bytes: Buffer | string, at?: Date) => {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, bytes);
      if (at) fs.utimesSync(p, at, at);
      return p;
    };

    // Stored through the api, then made old: kept.
    const stored = await newUpload(t, patient);
    expect((await put(t, stored.uploadUrl, PDF)).statusCode).toBe(200);
    fs.utimesSync(path.join(root, stored.key), old, old);
    // A pending row's file (a crash between placing it and the commit), old: removed; recent: kept.
    const crashed = await newUpload(t, patient);
    plant(path.join(root, crashed.key), PDF, old);
    const placing = await newUpload(t, patient);
    plant(path.join(root, placing.key), PDF);
    // A key no row knows: removed.
    const unknown = `${patient.id}/00000000-0000-4000-8000-000000000000.pdf`;
    plant(path.join(root, unknown), PDF, old);
    // Upload temp files: an old one removed, one being written kept.
    const stalePart = plant(path.join(root, '.tmp', 'aaaa.part'), '%PDF-', old);
    const livePart = plant(path.join(root, '.tmp', 'bbbb.part'), '%PDF-');
    // Outbox temp files likewise; a written message is never touched.
    const outbox = outboxDir(t.dataDir);
    const staleMail = plant(path.join(outbox, '.20250101T000000000Z-aaaa.eml.tmp'), '', old);
    const liveMail = plant(path.join(outbox, '.20250101T000000000Z-bbbb.eml.tmp'), 'From:');
    const sentMail = plant(path.join(outbox, '20250101T000000000Z-cccc.eml'), 'From:', old);

    const lines: object[] = [];
    const log = { info: (obj: object) => lines.push(obj), error: (obj: object) => lines.push(obj) };
    const result = await sweepOrphans({ db: tdb.adapter, storage, config: t.config }, new Date(), log);

    expect(result).toEqual({ parts: 1, unreferenced: 2, mailTemps: 1 });
    expect(lines).toEqual([{ parts: 1, unreferenced: 2, mailTemps: 1 }]);
    expect(fs.existsSync(path.join(root, stored.key))).toBe(true);
    expect(fs.existsSync(path.join(root, crashed.key))).toBe(false);
    expect(fs.existsSync(path.join(root, placing.key))).toBe(true);
    expect(fs.existsSync(path.join(root, unknown))).toBe(false);
    expect([stalePart, livePart, staleMail, liveMail, sentMail].map((p) => fs.existsSync(p))).toEqual([
      false,
      true,
      false,
      true,
      true,
    ]);
    // The crashed upload's URL still works: its row is pending and its stale file gone.
    expect((await put(t, crashed.uploadUrl, PDF)).statusCode).toBe(200);
    const [row] = await tdb.adapter.db.select().from(medicalFiles).where(eq(medicalFiles.storageKey, crashed.key));
    expect(row.status).toBe('stored');

    // Nothing left to remove: nothing logged.
    lines.length = 0;
    fs.rmSync(livePart);
    fs.rmSync(liveMail);
    expect(await sweepOrphans({ db: tdb.adapter, storage, config: t.config }, new Date(), log)).toEqual({
      parts: 0,
      unreferenced: 0,
      mailTemps: 0,
    });
    expect(lines).toEqual([]);
  });
});
