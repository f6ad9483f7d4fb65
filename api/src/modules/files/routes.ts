import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  MedicalFilesQuery,
  MedicalFilesResponse,
  PDF_MIME,
  PatientIdParams,
  UploadUrlQuery,
  UploadUrlResponse,
} from 'shared-contracts';
import type { AppDeps } from '../../app';
import { safeFileName } from '../../adapters/storage';
import { HttpError } from '../../lib/errors';
import { actorOf, audit } from '../audit/audit';
import { requireAnyRole } from '../auth/guard';
import { isAssigned } from '../connections/assignments';
import { PATIENT_NOT_FOUND } from '../records/messages';
import { ONLY_PDF, OWN_RECORD_ONLY, PATIENT_ID_REQUIRED } from './messages';
import { filesOf, insertPendingFile, markRejected, markStored } from './store';

/** An upload URL never used this long after it expired is given up (S3: its row becomes 'rejected'). */
const ABANDON_GRACE_MS = 60 * 60 * 1000;

/**
 * Medical PDF files (SPEC §3 "Medical file", §5 Upload, §7):
 *   GET /medical-record/{patientId}?fileType&fileName   the patient themself: `{ uploadUrl, key }`
 *   GET /medical-record[?patientId]                     patient: own; doctor: an assigned patient's
 * The bytes never pass through these routes: the browser PUTs to the storage URL (local disk:
 * modules/files/local-routes.ts; S3: a presigned URL) and reads through expiring URLs.
 */
export function fileRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { db, clock, config, storage } = deps;
  const anyone = requireAnyRole(deps, ['patient', 'doctor']);
  const patientOnly = requireAnyRole(deps, ['patient']);
  const common = { tags: ['medical files'], security: [{ bearerAuth: [] }] };
  const denied = { 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
  const ttl = config.files.urlTtlSeconds;
  const maxBytes = config.files.maxUploadBytes;

  /** S3 only: checks pending uploads of the patient (size, `%PDF-`) before anything is listed. */
  async function verifyPending(patientId: string, log: { warn(obj: object, msg: string): void }): Promise<void> {
    const pending = await filesOf(db.db, patientId, ['pending']);
    const now = clock.now();
    await Promise.all(
      pending.map(async (row) => {
        try {
          const result = await storage.verify(row.storageKey, { maxBytes });
          if (result.status === 'stored') await markStored(db.db, row.id, result.size, now);
          else if (result.status === 'rejected') {
            log.warn({ fileId: row.id, reason: result.reason }, 'uploaded object rejected and deleted');
            await markRejected(db.db, row.id);
          } else if (now.getTime() - row.createdAt.getTime() > ttl * 1000 + ABANDON_GRACE_MS) {
            await markRejected(db.db, row.id); // never uploaded: stop checking it
          }
        } catch (err) {
          // Storage unreachable: the file is simply not listed yet; the next listing tries again.
          log.warn({ err, fileId: row.id }, 'could not verify an uploaded object');
        }
      }),
    );
  }

  return async (app) => {
    app.get(
      '/medical-record/:patientId',
      {
        onRequest: patientOnly,
        // Validated here, not by the error handler, so a wrong type answers exactly `Only PDF files are accepted`.
        attachValidation: true,
        schema: {
          ...common,
          summary: 'A one-time URL to PUT one PDF (max MAX_UPLOAD_MB) to; the patient themself only',
          params: PatientIdParams,
          querystring: UploadUrlQuery,
          response: { 200: UploadUrlResponse, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        if (request.validationError) {
          const issues = (request.validationError as { validation?: { instancePath?: string }[] }).validation ?? [];
          if (issues.some((i) => i.instancePath === '/fileType')) throw new HttpError(400, ONLY_PDF);
          throw request.validationError;
        }
        const actor = actorOf(request, clock);
        const { patientId } = request.params;
        if (patientId !== actor.actorId) throw new HttpError(403, OWN_RECORD_ONLY);
        const storageKey = `${patientId}/${randomUUID()}.pdf`;
        const fileName = safeFileName(request.query.fileName);
        await db.db.transaction(async (tx) => {
          const row = await insertPendingFile(tx, { patientId, storageKey, fileName, createdAt: actor.at });
          await audit(tx, { ...actor, action: 'create', entity: 'medical_file', entityId: row.id, patientId });
        });
        const uploadUrl = await storage.createUploadUrl(storageKey, { contentType: PDF_MIME, maxBytes, expiresInSeconds: ttl });
        return { uploadUrl, key: storageKey };
      },
    );

    app.get(
      '/medical-record',
      {
        onRequest: anyone,
        schema: {
          ...common,
          summary: "Stored PDFs, newest first, as expiring inline URLs: the patient's own, or an assigned patient's (doctor, patientId required)",
          querystring: MedicalFilesQuery,
          response: { 200: MedicalFilesResponse, 400: ErrorResponse, ...denied },
        },
      },
      async (request) => {
        const actor = actorOf(request, clock);
        const asked = request.query.patientId;
        let patientId: string;
        if (actor.actorRole === 'patient') {
          if (asked !== undefined && asked !== actor.actorId) throw new HttpError(404, PATIENT_NOT_FOUND);
          patientId = actor.actorId;
        } else {
          if (asked === undefined) throw new HttpError(400, PATIENT_ID_REQUIRED);
          if (!(await isAssigned(db.db, actor.actorId, asked))) throw new HttpError(404, PATIENT_NOT_FOUND);
          patientId = asked;
        }
        if (!storage.verifiesOnReceipt) await verifyPending(patientId, request.log);
        const rows = await filesOf(db.db, patientId, ['stored']);
        const presignedUrl = await Promise.all(
          rows.map((r) => storage.createDownloadUrl(r.storageKey, { fileName: r.fileName, expiresInSeconds: ttl })),
        );
        await audit(db.db, { ...actor, action: 'list', entity: 'medical_file', patientId });
        return { presignedUrl, fileName: rows.map((r) => r.fileName) };
      },
    );
  };
}
