import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../config';
import { MIN_SIGNING_KEY_BYTES } from '../config';
import { loadOrCreateKey, type KeySource } from '../lib/key-file';
import type { Clock } from './clock';

/*
 * Where medical PDFs live. Two implementations behind one interface:
 *   - local disk (default): `<dataDir>/files/<key>`, URLs served by the api itself and signed with
 *     HMAC-SHA256 (modules/files/local-routes.ts checks them, streams and checks the upload);
 *   - S3 (S3_* set): presigned PUT/GET URLs; S3 cannot look at the bytes it receives, so an object
 *     is verified (size, `%PDF-`) before its row is ever listed.
 * Keys are made by the server (`<patientId>/<uuid>.pdf`), never from a file name.
 */

export const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.pdf$/;

/** True for a key of the form the server makes; anything else is refused before touching storage. */
export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export type VerifyResult = { status: 'stored'; size: number } | { status: 'missing' } | { status: 'rejected'; reason: string };

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Local disk checks size and type while receiving; S3 needs verify() before a file is listed. */
  readonly verifiesOnReceipt: boolean;
  /** A URL the browser PUTs the file to (Content-Type must be `contentType`). */
  createUploadUrl(key: string, opts: { contentType: string; maxBytes: number; expiresInSeconds: number }): Promise<string>;
  /** A URL that serves the file inline as application/pdf under `fileName`. */
  createDownloadUrl(key: string, opts: { fileName: string; expiresInSeconds: number }): Promise<string>;
  /** Is the object there, within the limit, and a PDF? A rejected object is deleted. */
  verify(key: string, opts: { maxBytes: number }): Promise<VerifyResult>;
  delete(key: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// File names and Content-Disposition

// Controls (C0, DEL, C1), bidi overrides/isolates and line/paragraph separators, quotes and
// backslashes, and characters no file system takes.
const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"\\<>:|?*]/g;
const MAX_NAME = 255;

/**
 * The display name kept for an upload: the last path segment only, without control, quote or
 * bidi characters, whitespace collapsed, no leading dots, ending in `.pdf`, at most 255 characters.
 * It is only ever shown (Content-Disposition, lists): storage keys never come from it.
 */
export function safeFileName(input: string): string {
  let name = input.normalize('NFC');
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  name = name.replace(UNSAFE_NAME_CHARS, '').replace(/\s+/g, ' ').trim().replace(/^[.\s]+/, '');
  let base = name.replace(/\.pdf$/i, '').trim();
  if (!base) base = 'document';
  base = [...base].slice(0, MAX_NAME - 4).join('').trim();
  return `${base}.pdf`;
}

/** RFC 6266 `inline` disposition: an ASCII fallback `filename`, plus `filename*` (RFC 8187) when needed. */
export function contentDisposition(fileName: string): string {
  const name = safeFileName(fileName);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  if (ascii === name) return `inline; filename="${ascii}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

// ---------------------------------------------------------------------------------------------
// Local disk

export class UploadRejected extends Error {
  constructor(
    readonly statusCode: 409 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRejected';
  }
}

export type SignedMethod = 'PUT' | 'GET';

export class LocalDiskStorage implements FileStorage {
  readonly kind = 'local' as const;
  readonly verifiesOnReceipt = true;
  readonly root: string;
  private readonly tmpDir: string;

  constructor(
    dataDir: string,
    private readonly signingKey: Buffer,
    private readonly publicUrl: string,
    private readonly clock: Clock,
  ) {
    if (signingKey.length < MIN_SIGNING_KEY_BYTES) throw new Error(`The files signing key must be at least ${MIN_SIGNING_KEY_BYTES} bytes`);
    this.root = path.join(dataDir, 'files');
    this.tmpDir = path.join(this.root, '.tmp');
  }

  private sign(method: SignedMethod, key: string, expires: number, fileName = ''): string {
    // Newline-separated fields: none of them can contain a newline (keys are checked, names cleaned).
    return createHmac('sha256', this.signingKey).update(`${method}\n${key}\n${expires}\n${fileName}`).digest('hex');
  }

  private url(method: SignedMethod, key: string, expiresInSeconds: number, fileName?: string): string {
    if (!isStorageKey(key)) throw new Error('invalid storage key');
    const expires = Math.floor(this.clock.now().getTime() / 1000) + Math.max(1, Math.floor(expiresInSeconds));
    const query = new URLSearchParams({ expires: String(expires) });
    if (fileName !== undefined) query.set('name', fileName);
    query.set('sig', this.sign(method, key, expires, fileName));
    return `${this.publicUrl}/files/${key}?${query.toString()}`;
  }

  async createUploadUrl(key: string, opts: { expiresInSeconds: number }): Promise<string> {
    return this.url('PUT', key, opts.expiresInSeconds);
  }

  async createDownloadUrl(key: string, opts: { fileName: string; expiresInSeconds: number }): Promise<string> {
    return this.url('GET', key, opts.expiresInSeconds, safeFileName(opts.fileName));
  }

  /**
   * 'ok', 'expired' or 'invalid'. The signature is compared in constant time; a missing,
   * malformed or wrong-length one is invalid.
   */
  checkSignature(
    method: SignedMethod,
    key: string,
    query: { expires?: string; sig?: string; name?: string },
  ): 'ok' | 'expired' | 'invalid' {
    if (!isStorageKey(key) || !query.expires || !/^\d{1,12}$/.test(query.expires) || !query.sig || !/^[0-9a-f]{64}$/.test(query.sig)) {
      return 'invalid';
    }
    const expires = Number(query.expires);
    const expected = Buffer.from(this.sign(method, key, expires, method === 'GET' ? (query.name ?? '') : ''), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(query.sig, 'hex'))) return 'invalid';
    if (Math.floor(this.clock.now().getTime() / 1000) > expires) return 'expired';
    return 'ok';
  }

  pathOf(key: string): string {
    if (!isStorageKey(key)) throw new Error('invalid storage key');
    const p = path.resolve(this.root, key);
    if (!p.startsWith(this.root + path.sep)) throw new Error('invalid storage key');
    return p;
  }

  /**
   * Streams `body` to a temporary file, refusing it WHILE streaming when it grows past maxBytes
   * (413) or does not start with `%PDF-` (415), then links it into place (no overwrite: a file
   * already there is a 409). Nothing is left behind on a refusal. Returns the size.
   */
  async receive(key: string, body: Readable, maxBytes: number): Promise<number> {
    const final = this.pathOf(key);
    await fs.promises.mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    await fs.promises.mkdir(path.dirname(final), { recursive: true, mode: 0o700 });
    if (fs.existsSync(final)) throw new UploadRejected(409, 'This upload URL has already been used');
    const tmp = path.join(this.tmpDir, `${randomBytes(12).toString('hex')}.part`);
    let size = 0;
    let head = Buffer.alloc(0);
    const check = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new UploadRejected(413, 'The file is too large'));
        if (head.length < PDF_MAGIC.length) {
          head = Buffer.concat([head, chunk.subarray(0, PDF_MAGIC.length - head.length)]);
          if (!PDF_MAGIC.subarray(0, head.length).equals(head)) return done(new UploadRejected(415, 'Only PDF files are accepted'));
        }
        done(null, chunk);
      },
      flush(done) {
        if (!head.equals(PDF_MAGIC)) return done(new UploadRejected(415, 'Only PDF files are accepted'));
        done();
      },
    });
    // The request body is piped in, not part of the pipeline: a refusal must not destroy the
    // request (and its socket) before the 413/415 answer is written.
    const out = fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    const written = pipeline(check, out);
    const abort = (err?: Error) => {
      if (!body.readableEnded) check.destroy(err ?? new Error('The upload was interrupted'));
    };
    body.once('error', abort);
    body.once('close', () => abort());
    body.pipe(check);
    try {
      await written;
      try {
        fs.linkSync(tmp, final); // atomic, and never replaces a file already stored
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new UploadRejected(409, 'This upload URL has already been used');
        throw err;
      }
      return size;
    } finally {
      body.unpipe(check);
      body.off('error', abort);
      // A refusal can settle the pipeline while the file is still being opened: wait for the
      // stream to close, or the removal below would run first and the .part file would survive.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await fs.promises.rm(tmp, { force: true });
    }
  }

  async verify(key: string, opts: { maxBytes: number }): Promise<VerifyResult> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(this.pathOf(key));
    } catch {
      return { status: 'missing' };
    }
    if (stat.size > opts.maxBytes) return { status: 'rejected', reason: 'too large' };
    return { status: 'stored', size: stat.size };
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// S3

function isAwsEndpoint(endpoint: string): boolean {
  try {
    return /(^|\.)amazonaws\.com(\.cn)?$/i.test(new URL(endpoint).hostname);
  } catch {
    return false;
  }
}

export class S3Storage implements FileStorage {
  readonly kind = 's3' as const;
  readonly verifiesOnReceipt = false;
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(
    s3: NonNullable<Config['files']['s3']>,
    private readonly clock: Clock,
  ) {
    this.bucket = s3.bucket;
    this.client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      // Path-style (`endpoint/bucket/key`) for MinIO, s3rver, Ceph…; virtual-hosted style on AWS.
      forcePathStyle: !isAwsEndpoint(s3.endpoint),
      maxAttempts: 3,
      // No flexible checksums in presigned URLs: a checksum of the empty body would be signed
      // into the PUT URL and the real upload refused; S3-compatible servers often lack them too.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async createUploadUrl(key: string, opts: { contentType: string; expiresInSeconds: number }): Promise<string> {
    if (!isStorageKey(key)) throw new Error('invalid storage key');
    // ContentType is signed: a PUT with another Content-Type fails the signature.
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: opts.contentType });
    return getSignedUrl(this.client, command, {
      expiresIn: Math.floor(opts.expiresInSeconds),
      signingDate: this.clock.now(),
      signableHeaders: new Set(['content-type']),
    });
  }

  async createDownloadUrl(key: string, opts: { fileName: string; expiresInSeconds: number }): Promise<string> {
    if (!isStorageKey(key)) throw new Error('invalid storage key');
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentType: 'application/pdf',
      ResponseContentDisposition: contentDisposition(opts.fileName),
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.client, command, { expiresIn: Math.floor(opts.expiresInSeconds), signingDate: this.clock.now() });
  }

  async verify(key: string, opts: { maxBytes: number }): Promise<VerifyResult> {
    let size: number;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      size = Number(head.ContentLength ?? 0);
    } catch (err) {
      if (isNotFound(err)) return { status: 'missing' };
      throw err;
    }
    let reason: string | undefined;
    if (size > opts.maxBytes) reason = 'too large';
    else if (size < PDF_MAGIC.length) reason = 'not a PDF';
    else {
      const first = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${PDF_MAGIC.length - 1}` }));
      const bytes = Buffer.from(await first.Body!.transformToByteArray()).subarray(0, PDF_MAGIC.length);
      if (!bytes.equals(PDF_MAGIC)) reason = 'not a PDF';
    }
    if (reason) {
      await this.delete(key);
      return { status: 'rejected', reason };
    }
    return { status: 'stored', size };
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

// ---------------------------------------------------------------------------------------------

/** FILES_SIGNING_KEY, or `<dataDir>/files-signing.key` made on first start (mode 0600). */
export function loadFilesSigningKey(config: Pick<Config, 'dataDir' | 'files'>): { key: Buffer; source: KeySource } {
  return loadOrCreateKey({
    fromEnv: config.files.signingKey,
    envName: 'FILES_SIGNING_KEY',
    file: path.join(config.dataDir, 'files-signing.key'),
    newBytes: 32,
    minBytes: MIN_SIGNING_KEY_BYTES,
  });
}

/** S3 when configured, else the local disk (whose signing key is loaded or made here). */
export function createStorage(
  config: Pick<Config, 'dataDir' | 'files' | 'apiPublicUrl'>,
  clock: Clock,
): { storage: FileStorage; keySource?: KeySource } {
  if (config.files.s3) return { storage: new S3Storage(config.files.s3, clock) };
  const { key, source } = loadFilesSigningKey(config);
  return { storage: new LocalDiskStorage(config.dataDir, key, config.apiPublicUrl, clock), keySource: source };
}
