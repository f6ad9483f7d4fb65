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
import { accessFor } from '../../access';
import { safeFileName } from '../../adapters/storage';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/errors';
import { requireAnyRole } from '../auth/guard';
import { ONLY_PDF } from './messages';

/**
 * Medical PDF files (SPEC §3 "Medical file", §5 Upload, §7):
 *   GET /medical-record/{patientId}?fileType&fileName   the patient themself: `{ uploadUrl, key }`
 *   GET /medical-record[?patientId]                     patient: own; doctor: an assigned patient's
 * The bytes never pass through these routes: the browser PUTs to the storage URL (local disk:
 * modules/files/local-routes.ts; S3: a presigned URL) and reads through expiring URLs.
 */
export function fileRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { config, storage } = deps;
  const anyone = requireAnyRole(deps, ['patient', 'doctor']);
  const patientOnly = requireAnyRole(deps, ['patient']);
  const common = { tags: ['medical files'], security: [{ bearerAuth: [] }] };
  const denied = { 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
  const ttl = config.files.urlTtlSeconds;
  const maxBytes = config.files.maxUploadBytes;

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
        const fileName = safeFileName(request.query.fileName);
        const storageKey = await accessFor(deps, request).createUpload(request.params.patientId, fileName);
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
        return accessFor(deps, request).listFiles(request.query.patientId, storage, { maxBytes, ttlSeconds: ttl, log: request.log });
      },
    );
  };
}
