import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
// s3rver ships no types; a functional S3 stand-in (it does not check signatures, STACK.md).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped CommonJS package
const S3rver = require('s3rver') as new (opts: object) => { run(): Promise<{ port: number }>; close(): Promise<void> };
import { MedicalFilesResponse, UploadUrlResponse } from '@careloop/shared-contracts';
import { S3Storage } from '../../adapters/storage';
import { medicalFiles } from '../../db/schema';
import { account, type Account } from '../../test/clinical';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';
import { PDF } from '../../test/files';

const BUCKET = 'careloop-test';

describe.each(BACKENDS)('medical files on S3 (s3rver), %s', (backend) => {
  let server: { close(): Promise<void> };
  let dir: string;
  let endpoint: string;
  let tdb: TestDb;
  let t: TestApp;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'careloop-s3rver-'));
    const s3rver = new S3rver({
      address: '127.0.0.1',
      port: 0,
      directory: dir,
      silent: true,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await s3rver.run();
    server = s3rver;
    endpoint = `http://127.0.0.1:${port}`;
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter, {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      MAX_UPLOAD_MB: '0.001', // 1,048 bytes
    });
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rowOf = async (key: string) =>
    (await tdb.adapter.db.select().from(medicalFiles).where(eq(medicalFiles.storageKey, key)))[0];
  const list = (who: Account) => t.app.inject({ method: 'GET', url: '/medical-record', headers: bearer(who.token) });
  async function newUpload(patient: Account, fileName = 'scan.pdf') {
    const res = await t.app.inject({
      method: 'GET',
      url: `/medical-record/${patient.id}?fileType=application%2Fpdf&fileName=${encodeURIComponent(fileName)}`,
      headers: bearer(patient.token),
    });
    expect(res.statusCode).toBe(200);
    return UploadUrlResponse.parse(res.json());
  }
  const putTo = (url: string, body: Buffer, contentType = 'application/pdf') =>
    fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
  const objectExists = async (key: string) => {
    const client = new S3Storage(t.config.files.s3!, t.clock).client;
    try {
      await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      return true;
    } catch {
      return false;
    } finally {
      client.destroy();
    }
  };

  it('presigned PUT (path style, Content-Type signed) → verified on listing → presigned GET serves it inline', async () => {
    const patient = await account(t, 'patient');
    const { uploadUrl, key } = await newUpload(patient, 'Lab results "May".pdf');
    const u = new URL(uploadUrl);
    expect(`${u.protocol}//${u.host}`).toBe(endpoint);
    expect(u.pathname).toBe(`/${BUCKET}/${key}`);
    expect(u.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-type');
    expect(u.searchParams.get('X-Amz-Expires')).toBe(String(t.config.files.urlTtlSeconds));

    expect((await putTo(uploadUrl, PDF)).status).toBe(200);
    expect((await rowOf(key)).status).toBe('pending'); // S3 cannot look at the bytes on receipt

    const res = await list(patient);
    expect(res.statusCode).toBe(200);
    const body = MedicalFilesResponse.parse(res.json());
    expect(body.fileName).toEqual(['Lab results May.pdf']);
    expect(await rowOf(key)).toMatchObject({ status: 'stored', size: PDF.length });

    const download = await fetch(body.presignedUrl[0]);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PDF);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe('inline; filename="Lab results May.pdf"');
    expect(new URL(body.presignedUrl[0]).searchParams.get('response-content-disposition')).toBe(
      'inline; filename="Lab results May.pdf"',
    );
  });

  it('verify-before-list rejects and deletes a non-PDF object: never listed', async () => {
    const patient = await account(t, 'patient');
    const { uploadUrl, key } = await newUpload(patient, 'fake.pdf');
    expect((await putTo(uploadUrl, Buffer.from('MZ\x90\x00 not a pdf at all'))).status).toBe(200);
    expect(await objectExists(key)).toBe(true);
    const body = MedicalFilesResponse.parse((await list(patient)).json());
    expect(body).toEqual({ presignedUrl: [], fileName: [], uploadedAt: [], size: [] });
    expect((await rowOf(key)).status).toBe('rejected');
    expect(await objectExists(key)).toBe(false);
  });

  it('verify-before-list rejects and deletes an object over MAX_UPLOAD_MB, keeps the good ones', async () => {
    const patient = await account(t, 'patient');
    const good = await newUpload(patient, 'good.pdf');
    const big = await newUpload(patient, 'big.pdf');
    const tiny = await newUpload(patient, 'tiny.pdf');
    expect((await putTo(good.uploadUrl, PDF)).status).toBe(200);
    expect((await putTo(big.uploadUrl, Buffer.concat([PDF, Buffer.alloc(2000, 0x20)]))).status).toBe(200);
    expect((await putTo(tiny.uploadUrl, Buffer.from('%PD'))).status).toBe(200);
    const body = MedicalFilesResponse.parse((await list(patient)).json());
    expect(body.fileName).toEqual(['good.pdf']);
    expect((await rowOf(big.key)).status).toBe('rejected');
    expect((await rowOf(tiny.key)).status).toBe('rejected');
    expect(await objectExists(big.key)).toBe(false);
    expect(await objectExists(good.key)).toBe(true);
  });

  it('an upload URL never used stays pending (not listed), and is given up once long expired', async () => {
    const patient = await account(t, 'patient');
    const { key } = await newUpload(patient, 'later.pdf');
    expect(MedicalFilesResponse.parse((await list(patient)).json()).fileName).toEqual([]);
    expect((await rowOf(key)).status).toBe('pending');
    t.clock.advance(t.config.files.urlTtlSeconds * 1000 + 2 * 60 * 60 * 1000);
    try {
      expect(MedicalFilesResponse.parse((await list(patient)).json()).fileName).toEqual([]);
      expect((await rowOf(key)).status).toBe('rejected');
    } finally {
      t.clock.advance(-(t.config.files.urlTtlSeconds * 1000 + 2 * 60 * 60 * 1000));
    }
  });

  it('the adapter signs Content-Type into the PUT and writes objects the SDK can read back', async () => {
    const s3 = new S3Storage(t.config.files.s3!, t.clock);
    try {
      const key = '00000000-0000-4000-8000-000000000000/00000000-0000-4000-8000-000000000001.pdf';
      await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: PDF, ContentType: 'application/pdf' }));
      expect(await s3.verify(key, { maxBytes: 10_000 })).toEqual({ status: 'stored', size: PDF.length });
      expect(await s3.verify(key, { maxBytes: 10 })).toEqual({ status: 'rejected', reason: 'too large' });
      expect(await s3.verify(key, { maxBytes: 10_000 })).toEqual({ status: 'missing' });
    } finally {
      s3.client.destroy();
    }
  });
});
