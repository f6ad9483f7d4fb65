import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS, PDF_MIME } from '@careloop/shared-contracts';
import { accessFor } from '../../access';
import { safeFileName } from '../../adapters/storage';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import { HttpError } from '../../lib/errors';
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
  const ttl = config.files.urlTtlSeconds;
  const maxBytes = config.files.maxUploadBytes;

  return async (app) => {
    route(
      app,
      deps,
      ENDPOINTS.uploadUrl,
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
      // Validated here, not by the error handler, so a wrong type answers exactly `Only PDF files are accepted`.
      { attachValidation: true },
    );

    route(app, deps, ENDPOINTS.listMedicalFiles, async (request) => {
      return accessFor(deps, request).listFiles(request.query.patientId, storage, {
        maxBytes,
        ttlSeconds: ttl,
        log: request.log,
      });
    });
  };
}
