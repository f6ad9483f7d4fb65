import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MIN_SIGNING_KEY_BYTES } from '../../config';
import type { Clock } from '../clock';
import {
  isStorageKey,
  PDF_MAGIC,
  safeFileName,
  type FileStorage,
  type LocalFileServer,
  type SignedMethod,
  type SignedQuery,
  type UrlIssuedTo,
  type VerifyResult,
} from './storage';

export class UploadRejected extends Error {
  constructor(
    readonly statusCode: 409 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRejected';
  }
}

/** `by=<role>.<accountId>` in a download URL: who it was issued to. */
const ISSUED_TO = /^(patient|doctor)\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export class LocalDiskStorage implements FileStorage, LocalFileServer {
  readonly kind = 'local' as const;
  readonly verifiesOnReceipt = true;
  /** This storage's URLs are served by the api itself. */
  readonly localServer: LocalFileServer = this;
  readonly root: string;
  private readonly tmpDir: string;

  constructor(
    dataDir: string,
    private readonly signingKey: Buffer,
    private readonly publicUrl: string,
    private readonly clock: Clock,
  ) {
    if (signingKey.length < MIN_SIGNING_KEY_BYTES)
      throw new Error(`The files signing key must be at least ${MIN_SIGNING_KEY_BYTES} bytes`);
    this.root = path.join(dataDir, 'files');
    this.tmpDir = path.join(this.root, '.tmp');
  }

  private sign(method: SignedMethod, key: string, expires: number, fileName = '', by = ''): string {
    // Newline-separated fields: none of them can contain a newline (keys are checked, names
    // cleaned, `by` is a role and a uuid). A URL without `by` signs an empty last field.
    const fields = `${method}\n${key}\n${expires}\n${fileName}${by ? `\n${by}` : ''}`;
    return createHmac('sha256', this.signingKey).update(fields).digest('hex');
  }

  private url(method: SignedMethod, key: string, expiresInSeconds: number, fileName?: string, issuedTo?: UrlIssuedTo): string {
    if (!isStorageKey(key)) throw new Error('invalid storage key');
    const expires = Math.floor(this.clock.now().getTime() / 1000) + Math.max(1, Math.floor(expiresInSeconds));
    const by = issuedTo ? `${issuedTo.role}.${issuedTo.accountId}` : undefined;
    if (by !== undefined && !ISSUED_TO.test(by)) throw new Error('invalid issuer');
    const query = new URLSearchParams({ expires: String(expires) });
    if (fileName !== undefined) query.set('name', fileName);
    if (by !== undefined) query.set('by', by);
    query.set('sig', this.sign(method, key, expires, fileName, by));
    return `${this.publicUrl}/files/${key}?${query.toString()}`;
  }

  async createUploadUrl(key: string, opts: { expiresInSeconds: number }): Promise<string> {
    return this.url('PUT', key, opts.expiresInSeconds);
  }

  async createDownloadUrl(
    key: string,
    opts: { fileName: string; expiresInSeconds: number; issuedTo?: UrlIssuedTo },
  ): Promise<string> {
    return this.url('GET', key, opts.expiresInSeconds, safeFileName(opts.fileName), opts.issuedTo);
  }

  /**
   * 'ok', 'expired' or 'invalid'. The signature is compared in constant time; a missing,
   * malformed or wrong-length one is invalid.
   */
  checkSignature(method: SignedMethod, key: string, query: SignedQuery): 'ok' | 'expired' | 'invalid' {
    if (
      !isStorageKey(key) ||
      !query.expires ||
      !/^\d{1,12}$/.test(query.expires) ||
      !query.sig ||
      !/^[0-9a-f]{64}$/.test(query.sig)
    ) {
      return 'invalid';
    }
    // A newline would let a name stand in for the `by` field of the signed text.
    if (query.name?.includes('\n') || query.by?.includes('\n')) return 'invalid';
    const expires = Number(query.expires);
    const signed =
      method === 'GET' ? this.sign(method, key, expires, query.name ?? '', query.by ?? '') : this.sign(method, key, expires);
    const expected = Buffer.from(signed, 'hex');
    if (!timingSafeEqual(expected, Buffer.from(query.sig, 'hex'))) return 'invalid';
    if (Math.floor(this.clock.now().getTime() / 1000) > expires) return 'expired';
    return 'ok';
  }

  issuedTo(query: SignedQuery): UrlIssuedTo | undefined {
    const match = ISSUED_TO.exec(query.by ?? '');
    return match ? { role: match[1] as UrlIssuedTo['role'], accountId: match[2] } : undefined;
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
          if (!PDF_MAGIC.subarray(0, head.length).equals(head))
            return done(new UploadRejected(415, 'Only PDF files are accepted'));
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
        if ((err as NodeJS.ErrnoException).code === 'EEXIST')
          throw new UploadRejected(409, 'This upload URL has already been used');
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
