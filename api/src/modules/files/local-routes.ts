import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, PDF_MIME, type SignedFileQuery } from '@careloop/shared-contracts';
import type { z } from 'zod';
import { signedDownload, signedUploads } from '../../access';
import { contentDisposition, type LocalFileServer, type ReceivedUpload, UploadRejected } from '../../adapters/storage';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { HttpError } from '../../lib/errors';
import { ONLY_PDF, URL_EXPIRED, URL_INVALID, URL_USED } from './messages';

/**
 * The local-disk storage's own URLs (no bearer: the HMAC signature in the URL is the authority):
 *   PUT /files/{patientId}/{uuid}.pdf?expires&sig         once: streamed, ≤ MAX_UPLOAD_MB, `%PDF-`
 *   GET /files/{patientId}/{uuid}.pdf?expires&name&by&sig the PDF, inline, under the signed name;
 *       audited as a read by the account the URL was issued to (`by`), if it may still see the patient
 */
export function localFileRoutes(deps: AppDeps, storage: LocalFileServer): FastifyPluginAsyncZod {
  const { db, clock, config } = deps;
  const maxBytes = config.files.maxUploadBytes;

  function checkSignature(method: 'PUT' | 'GET', key: string, query: z.infer<typeof SignedFileQuery>): void {
    const result = storage.checkSignature(method, key, query);
    if (result === 'expired') throw new HttpError(403, URL_EXPIRED);
    if (result !== 'ok') throw new HttpError(403, URL_INVALID);
  }

  return async (app) => {
    // The body is the raw request stream, read by the handler: Fastify's bodyLimit (1 MB, for
    // JSON) does not apply here, MAX_UPLOAD_MB does, counted while streaming.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    // Uploads being received: closing the app (shutdown cuts their connections) waits until each
    // has settled, so its temp file is removed before the process exits.
    const receiving = new Set<Promise<unknown>>();
    app.addHook('onClose', async () => {
      await Promise.allSettled([...receiving]);
    });

    // Public in the contract: the signature is checked by the handler, not a bearer token.
    route(app, deps, ENDPOINTS.putSignedFile, async (request, reply) => {
      const key = `${request.params.patientId}/${request.params.file}`;
      checkSignature('PUT', key, request.query);
      const row = await signedUploads.find(db.db, key);
      if (!row) throw new HttpError(404, 'Not found');
      if (row.status !== 'pending') throw new HttpError(409, URL_USED);
      // From here on the answer may come before the whole body was read: close the connection
      // after it rather than read the rest of a refused upload.
      const refuse = async (status: 413 | 415, message: string) => {
        await signedUploads.markRejected(db.db, row.id);
        reply.header('connection', 'close');
        throw new HttpError(status, message);
      };
      const mediaType = (request.headers['content-type'] ?? '').split(';', 1)[0].trim().toLowerCase();
      if (mediaType !== PDF_MIME) return refuse(415, ONLY_PDF);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) return refuse(413, tooLarge(maxBytes));
      let upload: ReceivedUpload;
      try {
        // Once the answer is gone (the shutdown's 503) or the connection cut, the body will not
        // end or fail by itself (Node drops a request whose response is done): end it here, so
        // receive() gives up and removes its temp file.
        const cut = () => request.raw.destroy();
        reply.raw.once('close', cut);
        const received = storage.receive(key, request.raw, maxBytes);
        receiving.add(received);
        void received
          .catch(() => undefined)
          .finally(() => {
            receiving.delete(received);
            reply.raw.off('close', cut);
          });
        upload = await received;
      } catch (err) {
        if (err instanceof UploadRejected) return refuse(err.statusCode, err.statusCode === 415 ? ONLY_PDF : tooLarge(maxBytes));
        // A failed write (a full disk: 507) stopped reading the body: read the rest (as much as an
        // upload may be) so the client's kept-alive connection can take its next request; a longer
        // body is not read, and the error handler closes the connection instead.
        await drain(request.raw, maxBytes);
        throw err; // the row stays pending: the same URL may be tried again
      }
      try {
        // The file becomes final in the transaction that stores its row; if that fails (the
        // database unreachable: 503) it is taken back, so the same URL can be retried.
        const stored = await signedUploads.store(db.db, row.id, upload.size, clock.now(), request.ip ?? null, () =>
          upload.place(),
        );
        // The row left 'pending' meanwhile (a concurrent, refused PUT): keep nothing.
        if (!stored) throw new HttpError(409, URL_USED);
      } catch (err) {
        await upload.unplace();
        throw err;
      } finally {
        await upload.discard();
      }
      return { message: 'File upload successful', key };
    });

    // The PDF itself is answered (the contract's `response: null`): no schema serializes the stream.
    route(app, deps, ENDPOINTS.getSignedFile, async (request, reply) => {
      const key = `${request.params.patientId}/${request.params.file}`;
      checkSignature('GET', key, request.query);
      // Deny by default: a download names who it was issued to, or it is not served.
      const issuedTo = storage.issuedTo(request.query);
      if (!issuedTo) throw new HttpError(403, URL_INVALID);
      const file = storage.pathOf(key);
      let stat: fs.Stats;
      try {
        stat = await fs.promises.stat(file);
      } catch {
        throw new HttpError(404, 'Not found');
      }
      // The audit row is written (and the issuer's access checked again) before a byte is sent.
      if (!(await signedDownload(db.db, key, issuedTo, clock.now(), request.ip ?? null))) throw new HttpError(404, 'Not found');
      reply
        .header('content-type', PDF_MIME)
        .header('content-length', stat.size)
        .header('content-disposition', contentDisposition(request.query.name ?? 'document.pdf'))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        // The web apps may show the PDF in a frame; the browser's PDF viewer needs no other policy.
        .header('content-security-policy', `frame-ancestors 'self' ${config.webOrigins.join(' ')}`.trim())
        .header('cross-origin-resource-policy', 'cross-origin')
        .removeHeader('x-frame-options');
      // A stream: no response schema applies to the 200.
      return reply.send(fs.createReadStream(file) as never);
    });
  };
}

/** Reads and drops the rest of a request body, up to `limit` bytes; false when it is longer, cut or fails. */
function drain(body: Readable, limit: number): Promise<boolean> {
  if (body.readableEnded) return Promise.resolve(true);
  if (body.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const settle = (drained: boolean) => {
      body.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      if (!drained) body.pause();
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) settle(false);
    };
    const onEnd = () => settle(true);
    const onClose = () => settle(false);
    body.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
    body.resume();
  });
}

function tooLarge(maxBytes: number): string {
  const mb = maxBytes / (1024 * 1024);
  return `The file is too large (limit ${mb >= 1 ? `${+mb.toFixed(1)} MB` : `${+(maxBytes / 1024).toFixed(1)} KB`})`;
}
