import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { MedicalFilesResponse, UploadUrlResponse } from '@careloop/shared-contracts';
import { auditLog, medicalFiles } from '../../db/schema';
import { account, connect, type Account } from '../../test/clinical';
import { local, PDF } from '../../test/files';
import { BACKENDS, bearer, createTestApp, createTestDb, type TestApp, type TestDb } from '../../test/helpers';

describe.each(BACKENDS)('medical files on local disk, %s', (backend) => {
  let tdb: TestDb;
  let t: TestApp;
  let small: TestApp; // same database, MAX_UPLOAD_MB=0.001 (1,048 bytes)

  beforeAll(async () => {
    tdb = await createTestDb(backend);
    t = await createTestApp(tdb.adapter);
    small = await createTestApp(tdb.adapter, { MAX_UPLOAD_MB: '0.001' });
  });
  afterAll(async () => {
    await t?.app.close();
    await small?.app.close();
    await tdb?.cleanup();
  });

  const uploadUrl = (app: TestApp, who: Account | undefined, patientId: string, query: string) =>
    app.app.inject({ method: 'GET', url: `/medical-record/${patientId}${query}`, headers: who ? bearer(who.token) : {} });
  const pdfQuery = (fileName = 'scan.pdf') => `?fileType=application%2Fpdf&fileName=${encodeURIComponent(fileName)}`;
  const put = (app: TestApp, url: string, payload: Buffer | Readable, contentType = 'application/pdf') =>
    app.app.inject({ method: 'PUT', url: local(url), headers: { 'content-type': contentType }, payload });
  const list = (app: TestApp, who: Account, query = '') =>
    app.app.inject({ method: 'GET', url: `/medical-record${query}`, headers: bearer(who.token) });

  async function newUpload(app: TestApp, patient: Account, fileName = 'scan.pdf') {
    const res = await uploadUrl(app, patient, patient.id, pdfQuery(fileName));
    expect(res.statusCode).toBe(200);
    return UploadUrlResponse.parse(res.json());
  }
  const filesDir = (app: TestApp) => path.join(app.dataDir, 'files');
  const storedFiles = (app: TestApp, patient: Account) => {
    const dir = path.join(filesDir(app), patient.id);
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const tmpFiles = (app: TestApp) => {
    const dir = path.join(filesDir(app), '.tmp');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const rowOf = async (key: string) =>
    (await tdb.adapter.db.select().from(medicalFiles).where(eq(medicalFiles.storageKey, key)))[0];

  describe('GET /medical-record/{patientId} (upload URL)', () => {
    it('gives the patient a signed PUT URL under a server-made key, and a pending row', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url, key } = await newUpload(t, patient, 'blood test.pdf');
      expect(key).toMatch(new RegExp(`^${patient.id}/[0-9a-f-]{36}\\.pdf$`));
      expect(url.startsWith(`${t.config.apiPublicUrl}/files/${key}?expires=`)).toBe(true);
      expect(new URL(url).searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
      const row = await rowOf(key);
      expect(row).toMatchObject({ patientId: patient.id, fileName: 'blood test.pdf', status: 'pending', size: null });
      // nothing is created yet: the access history says "created" only once the file is stored
      expect(await tdb.adapter.db.select().from(auditLog).where(eq(auditLog.entityId, row.id))).toEqual([]);
      expect((await put(t, url, PDF)).statusCode).toBe(200);
      expect(await tdb.adapter.db.select().from(auditLog).where(eq(auditLog.entityId, row.id))).toEqual([
        expect.objectContaining({ action: 'create', entity: 'medical_file', actorId: patient.id, patientId: patient.id }),
      ]);
    });

    it.each([
      ['text/plain', `?fileType=text%2Fplain&fileName=a.pdf`],
      ['no fileType', `?fileName=a.pdf`],
      ['image/png', `?fileType=image%2Fpng&fileName=a.png`],
    ])('400 Only PDF files are accepted for %s', async (_label, query) => {
      const patient = await account(t, 'patient');
      const res = await uploadUrl(t, patient, patient.id, query);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Only PDF files are accepted' });
    });

    it('400 without a file name, and for a malformed patient id', async () => {
      const patient = await account(t, 'patient');
      const noName = await uploadUrl(t, patient, patient.id, '?fileType=application%2Fpdf');
      expect(noName.statusCode).toBe(400);
      expect(noName.json().error).toMatch(/fileName/);
      expect((await uploadUrl(t, patient, 'nope', pdfQuery())).statusCode).toBe(400);
    });

    it('403 for another patient, 403 for a doctor (even an assigned one), 401 without a token', async () => {
      const patient = await account(t, 'patient');
      const other = await account(t, 'patient');
      const doctor = await account(t, 'doctor');
      await connect(t, doctor, patient);
      const cross = await uploadUrl(t, other, patient.id, pdfQuery());
      expect(cross.statusCode).toBe(403);
      expect(cross.json()).toEqual({ error: 'You can only upload files to your own medical record' });
      const byDoctor = await uploadUrl(t, doctor, patient.id, pdfQuery());
      expect(byDoctor.statusCode).toBe(403);
      expect(byDoctor.json()).toEqual({ error: expect.any(String) });
      expect((await uploadUrl(t, undefined, patient.id, pdfQuery())).statusCode).toBe(401);
      expect(await tdb.adapter.db.select().from(medicalFiles).where(eq(medicalFiles.patientId, patient.id))).toEqual([]);
    });
  });

  describe('PUT to the signed URL', () => {
    it('stores a real PDF (200), which is then listed and served inline with the server-chosen name', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url, key } = await newUpload(t, patient, 'Discharge letter.pdf');
      const res = await put(t, url, PDF);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'File upload successful', key });
      expect(await rowOf(key)).toMatchObject({ status: 'stored', size: PDF.length, storedAt: expect.any(Date) });
      expect(fs.readFileSync(path.join(filesDir(t), key))).toEqual(PDF);
      expect((fs.statSync(path.join(filesDir(t), key)).mode & 0o777).toString(8)).toBe('600');
      expect(tmpFiles(t)).toEqual([]);

      const listed = await list(t, patient);
      expect(listed.statusCode).toBe(200);
      const body = MedicalFilesResponse.parse(listed.json());
      expect(body.fileName).toEqual(['Discharge letter.pdf']);
      // with when it was stored and its size, for the list to show
      expect(body.size).toEqual([PDF.length]);
      expect(body.uploadedAt).toEqual([(await rowOf(key)).storedAt!.toISOString()]);
      const download = await t.app.inject({ method: 'GET', url: local(body.presignedUrl[0]) });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload).toEqual(PDF);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(download.headers['content-disposition']).toBe('inline; filename="Discharge letter.pdf"');
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['cache-control']).toBe('private, no-store');
    });

    it('refuses non-PDF bytes with 415: nothing on disk, never listed', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url, key } = await newUpload(t, patient, 'fake.pdf');
      const res = await put(t, url, Buffer.from('<html><script>alert(1)</script></html>'));
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ error: 'Only PDF files are accepted' });
      expect(storedFiles(t, patient)).toEqual([]);
      expect(tmpFiles(t)).toEqual([]);
      const row = await rowOf(key);
      expect(row.status).toBe('rejected');
      expect(MedicalFilesResponse.parse((await list(t, patient)).json())).toEqual({
        presignedUrl: [],
        fileName: [],
        uploadedAt: [],
        size: [],
      });
      // a refused upload is no phantom "created a medical file" in the patient's access history
      expect(await tdb.adapter.db.select().from(auditLog).where(eq(auditLog.entityId, row.id))).toEqual([]);
    });

    it('refuses a Content-Type other than application/pdf with 415, even for PDF bytes', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url } = await newUpload(t, patient);
      const res = await put(t, url, PDF, 'application/octet-stream');
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ error: 'Only PDF files are accepted' });
      expect(storedFiles(t, patient)).toEqual([]);
    });

    it('refuses an upload over MAX_UPLOAD_MB with 413 and keeps nothing (declared length)', async () => {
      const patient = await account(small, 'patient');
      const { uploadUrl: url, key } = await newUpload(small, patient);
      const big = Buffer.concat([PDF, Buffer.alloc(2000, 0x20)]);
      const res = await put(small, url, big);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: 'The file is too large (limit 1 KB)' });
      expect(storedFiles(small, patient)).toEqual([]);
      expect((await rowOf(key)).status).toBe('rejected');
    });

    it('counts the bytes while streaming when no length is declared (413, nothing kept)', async () => {
      const patient = await account(small, 'patient');
      const { uploadUrl: url, key } = await newUpload(small, patient);
      const chunks = [PDF, ...Array.from({ length: 10 }, () => Buffer.alloc(500, 0x20))];
      const res = await put(small, url, Readable.from(chunks));
      expect(res.statusCode).toBe(413);
      expect(storedFiles(small, patient)).toEqual([]);
      expect(tmpFiles(small)).toEqual([]);
      expect((await rowOf(key)).status).toBe('rejected');

      // Under the limit, streamed: stored.
      const ok = await newUpload(small, patient);
      const res2 = await put(small, ok.uploadUrl, Readable.from([PDF.subarray(0, 3), PDF.subarray(3)]));
      expect(res2.statusCode).toBe(200);
      expect(storedFiles(small, patient)).toEqual([path.basename(ok.key)]);
    });

    it('is single use: a second PUT to the same URL is 409 and the first file stays', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url, key } = await newUpload(t, patient);
      expect((await put(t, url, PDF)).statusCode).toBe(200);
      const again = await put(t, url, Buffer.concat([PDF, Buffer.from('% changed')]));
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: 'This upload URL has already been used' });
      expect(fs.readFileSync(path.join(filesDir(t), key))).toEqual(PDF);
      // A refused upload uses the URL up too.
      const second = await newUpload(t, patient);
      expect((await put(t, second.uploadUrl, Buffer.from('nope!'))).statusCode).toBe(415);
      expect((await put(t, second.uploadUrl, PDF)).statusCode).toBe(409);
    });

    it('403 for a tampered signature, key, or expiry, and for an expired URL', async () => {
      const patient = await account(t, 'patient');
      const other = await account(t, 'patient');
      const { uploadUrl: url, key } = await newUpload(t, patient);
      const u = new URL(url);
      const sig = u.searchParams.get('sig')!;
      const variants = [
        url.replace(`sig=${sig}`, `sig=${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`),
        url.replace(`sig=${sig}`, 'sig=zz'),
        url.replace(/&sig=[0-9a-f]+/, ''),
        url.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 3600}`),
        url.replace(patient.id, other.id),
      ];
      for (const v of variants) {
        const res = await put(t, v, PDF);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'Invalid or missing signature' });
      }
      // The untouched URL still works: the refused attempts did not use it up.
      expect((await put(t, url, PDF)).statusCode).toBe(200);
      expect((await rowOf(key)).status).toBe('stored');

      const late = await newUpload(t, patient);
      t.clock.advance(t.config.files.urlTtlSeconds * 1000 + 1500);
      try {
        const res = await put(t, late.uploadUrl, PDF);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'This link has expired' });
        expect((await rowOf(late.key)).status).toBe('pending');
      } finally {
        t.clock.advance(-(t.config.files.urlTtlSeconds * 1000 + 1500));
      }
    });

    it('a PUT URL does not read the file and a GET URL does not write it', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url } = await newUpload(t, patient);
      expect((await put(t, url, PDF)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: local(url) })).statusCode).toBe(403);
      const [download] = MedicalFilesResponse.parse((await list(t, patient)).json()).presignedUrl;
      expect((await put(t, download, PDF)).statusCode).toBe(403);
    });
  });

  describe('download names', () => {
    it('cleans a hostile name: no path, quotes or line breaks reach Content-Disposition', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url, key } = await newUpload(t, patient, '../../etc/passwd"\r\n.pdf');
      expect(key).not.toContain('passwd');
      expect((await rowOf(key)).fileName).toBe('passwd.pdf');
      expect((await put(t, url, PDF)).statusCode).toBe(200);
      const body = MedicalFilesResponse.parse((await list(t, patient)).json());
      expect(body.fileName).toEqual(['passwd.pdf']);
      const res = await t.app.inject({ method: 'GET', url: local(body.presignedUrl[0]) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe('inline; filename="passwd.pdf"');
    });

    it('non-ASCII names get an ASCII fallback and filename* (RFC 6266 / 8187)', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url } = await newUpload(t, patient, 'Résumé médical (2025).PDF');
      expect((await put(t, url, PDF)).statusCode).toBe(200);
      const body = MedicalFilesResponse.parse((await list(t, patient)).json());
      expect(body.fileName).toEqual(['Résumé médical (2025).pdf']);
      const res = await t.app.inject({ method: 'GET', url: local(body.presignedUrl[0]) });
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="R_sum_ m_dical (2025).pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20m%C3%A9dical%20%282025%29.pdf`,
      );
    });

    it('403 for a download URL whose name, key or expiry was changed, or that expired', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url } = await newUpload(t, patient, 'real.pdf');
      expect((await put(t, url, PDF)).statusCode).toBe(200);
      const [download] = MedicalFilesResponse.parse((await list(t, patient)).json()).presignedUrl;
      const renamed = download.replace('name=real.pdf', 'name=evil.html');
      expect(renamed).not.toBe(download);
      expect((await t.app.inject({ method: 'GET', url: local(renamed) })).statusCode).toBe(403);
      t.clock.advance(t.config.files.urlTtlSeconds * 1000 + 1500);
      try {
        const res = await t.app.inject({ method: 'GET', url: local(download) });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'This link has expired' });
      } finally {
        t.clock.advance(-(t.config.files.urlTtlSeconds * 1000 + 1500));
      }
    });
  });

  describe('GET /medical-record (list)', () => {
    it('patient: own files, newest first; another patient cannot list them', async () => {
      const patient = await account(t, 'patient');
      const other = await account(t, 'patient');
      for (const name of ['first.pdf', 'second.pdf']) {
        const { uploadUrl: url } = await newUpload(t, patient, name);
        expect((await put(t, url, PDF)).statusCode).toBe(200);
        t.clock.advance(1000);
      }
      await newUpload(t, patient, 'never-uploaded.pdf');
      expect(MedicalFilesResponse.parse((await list(t, patient)).json()).fileName).toEqual(['second.pdf', 'first.pdf']);
      expect(MedicalFilesResponse.parse((await list(t, patient, `?patientId=${patient.id}`)).json()).fileName).toHaveLength(2);
      expect(MedicalFilesResponse.parse((await list(t, other)).json())).toEqual({
        presignedUrl: [],
        fileName: [],
        uploadedAt: [],
        size: [],
      });
      const cross = await list(t, other, `?patientId=${patient.id}`);
      expect(cross.statusCode).toBe(404);
      expect(cross.json()).toEqual({ error: 'Patient not found' });
    });

    it("doctor: an assigned patient's files; unassigned or unknown 404; patientId required", async () => {
      const patient = await account(t, 'patient');
      const assigned = await account(t, 'doctor');
      const stranger = await account(t, 'doctor');
      await connect(t, assigned, patient);
      const { uploadUrl: url } = await newUpload(t, patient, 'ecg.pdf');
      expect((await put(t, url, PDF)).statusCode).toBe(200);

      const ok = await list(t, assigned, `?patientId=${patient.id}`);
      expect(ok.statusCode).toBe(200);
      const body = MedicalFilesResponse.parse(ok.json());
      expect(body.fileName).toEqual(['ecg.pdf']);
      const download = await t.app.inject({ method: 'GET', url: local(body.presignedUrl[0]) });
      expect(download.rawPayload).toEqual(PDF);

      for (const res of [
        await list(t, stranger, `?patientId=${patient.id}`),
        await list(t, stranger, `?patientId=${stranger.id}`),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Patient not found' });
      }
      const missing = await list(t, assigned);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ error: 'patientId is required' });
      expect((await list(t, assigned, '?patientId=x')).statusCode).toBe(400);

      // (The doctor's own e-mail verification is a security row of the same actor: data access only here.)
      const audits = (await tdb.adapter.db.select().from(auditLog).where(eq(auditLog.actorId, assigned.id))).filter(
        (a) => a.entity !== 'account',
      );
      const [file] = await tdb.adapter.db.select().from(medicalFiles).where(eq(medicalFiles.patientId, patient.id));
      expect(audits).toEqual([
        expect.objectContaining({ action: 'list', entity: 'medical_file', patientId: patient.id, entityId: null }),
        // the download through the URL issued to the doctor
        expect.objectContaining({ action: 'read', entity: 'medical_file', patientId: patient.id, entityId: file.id }),
      ]);
    });

    it('lists every stored file, however many: no cap hides the oldest', async () => {
      const patient = await account(t, 'patient');
      const { uploadUrl: url } = await newUpload(t, patient, 'oldest.pdf');
      expect((await put(t, url, PDF)).statusCode).toBe(200);
      const base = t.clock.now().getTime();
      await tdb.adapter.db.insert(medicalFiles).values(
        Array.from({ length: 520 }, (_, i) => ({
          patientId: patient.id,
          storageKey: `${patient.id}/${crypto.randomUUID()}.pdf`,
          fileName: `later-${i}.pdf`,
          size: PDF.length,
          status: 'stored' as const,
          createdAt: new Date(base + (i + 1) * 1000),
          storedAt: new Date(base + (i + 1) * 1000),
        })),
      );
      const body = MedicalFilesResponse.parse((await list(t, patient)).json());
      expect(body.fileName).toHaveLength(521);
      expect(body.presignedUrl).toHaveLength(521);
      expect(body.fileName.at(-1)).toBe('oldest.pdf');
    });
  });

  describe('over real HTTP', () => {
    let base: string;
    beforeAll(async () => {
      await small.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = small.app.server.address() as { port: number };
      base = `http://127.0.0.1:${addr.port}`;
    });
    const onServer = (url: string) => `${base}${local(url)}`;

    it('accepts a browser PUT from a web origin (CORS preflight) and answers 413 to a streamed oversize body', async () => {
      const patient = await account(small, 'patient');
      const { uploadUrl: url } = await newUpload(small, patient);
      const preflight = await fetch(onServer(url), {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:8082',
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:8082');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');

      const ok = await fetch(onServer(url), {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', origin: 'http://localhost:8082' },
        body: PDF,
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:8082');

      const next = await newUpload(small, patient);
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array(PDF));
          for (let i = 0; i < 50; i++) controller.enqueue(new Uint8Array(1000).fill(0x20));
          controller.close();
        },
      });
      const big = await fetch(onServer(next.uploadUrl), {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({ error: 'The file is too large (limit 1 KB)' });
      expect(storedFiles(small, patient)).toHaveLength(1);
    });
  });
});
