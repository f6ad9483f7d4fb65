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
  type ReceivedUpload,
  type SignedMethod,
  type SignedQuery,
  type UrlIssuedTo,
  type VerifyResult,
} from './storage';

export class UploadRejected extends Error {
  constructor(
    readonly statusCode: 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRejected';
  }
}

const PART_SUFFIX = '.part';

async function listDir(dir: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
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
   * (413) or does not start with `%PDF-` (415), and flushes it to disk. Nothing is final yet: the
   * caller puts the file in place (place()) inside the transaction that marks its row stored, and
   * takes it back (unplace()) if that transaction fails, so a file is final only with its row.
   * discard() removes whatever is left of the temp file; a refusal or a failed write (ENOSPC)
   * leaves nothing behind.
   */
  async receive(key: string, body: Readable, maxBytes: number): Promise<ReceivedUpload> {
    const final = this.pathOf(key);
    await fs.promises.mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    await fs.promises.mkdir(path.dirname(final), { recursive: true, mode: 0o700 });
    const tmp = path.join(this.tmpDir, `${randomBytes(12).toString('hex')}${PART_SUFFIX}`);
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
    const discard = async () => {
      // A refusal can settle the pipeline while the file is still being opened: wait for the
      // stream to close, or the removal below would run first and the .part file would survive.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await fs.promises.rm(tmp, { force: true });
    };
    try {
      await written;
      // A full disk may only show when the data is flushed: before the file can become final.
      const handle = await fs.promises.open(tmp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (err) {
      await discard();
      throw err;
    } finally {
      body.unpipe(check);
      body.off('error', abort);
    }
    let placed = false;
    return {
      size,
      async place() {
        // Atomic. Replaces a file left by an attempt that crashed before its row was stored: the
        // caller holds the row (pending → stored) while placing, so no stored file is replaced.
        await fs.promises.rename(tmp, final);
        placed = true;
      },
      async unplace() {
        if (placed) await fs.promises.rm(final, { force: true });
        placed = false;
      },
      discard,
    };
  }

  /**
   * Removes what interrupted work left: temp files (`.tmp/*.part`) and final files whose key
   * `isStored` does not confirm, both only when last written before `olderThan` (an upload in
   * flight, or one being placed, is never touched). Returns what was removed.
   */
  async sweepOrphans(
    olderThan: Date,
    isStored: (keys: string[]) => Promise<Set<string>>,
  ): Promise<{ parts: number; unreferenced: number }> {
    const stale = async (p: string) => {
      try {
        const stat = await fs.promises.lstat(p);
        return stat.isFile() && stat.mtime < olderThan;
      } catch {
        return false; // gone meanwhile
      }
    };
    let parts = 0;
    for (const name of await listDir(this.tmpDir)) {
      const p = path.join(this.tmpDir, name);
      if (name.endsWith(PART_SUFFIX) && (await stale(p))) {
        await fs.promises.rm(p, { force: true });
        parts++;
      }
    }
    let unreferenced = 0;
    for (const dir of await listDir(this.root)) {
      if (dir === '.tmp') continue;
      const candidates: string[] = [];
      for (const name of await listDir(path.join(this.root, dir))) {
        const key = `${dir}/${name}`;
        if (isStorageKey(key) && (await stale(path.join(this.root, key)))) candidates.push(key);
      }
      for (let i = 0; i < candidates.length; i += 500) {
        const batch = candidates.slice(i, i + 500);
        const stored = await isStored(batch);
        for (const key of batch) {
          if (stored.has(key)) continue;
          await fs.promises.rm(path.join(this.root, key), { force: true });
          unreferenced++;
        }
      }
    }
    return { parts, unreferenced };
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

  async read(key: string): Promise<Buffer> {
    return fs.promises.readFile(this.pathOf(key));
  }
}
