import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../../config';
import type { Clock } from '../clock';
import { contentDisposition, isStorageKey, PDF_MAGIC, type FileStorage, type VerifyResult } from './storage';

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
      const first = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${PDF_MAGIC.length - 1}` }),
      );
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

  async read(key: string): Promise<Buffer> {
    if (!isStorageKey(key)) throw new Error('invalid storage key');
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return Buffer.from(await object.Body!.transformToByteArray());
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
