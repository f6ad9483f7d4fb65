import type { FastifyRequest } from 'fastify';
import { FHIR_BASE } from '@careloop/shared-contracts';
import { isoDate } from '../../clinical/age';
import type { AppDeps } from '../../deps';
import type { FhirContext } from '../../fhir';

/**
 * The FhirContext of a guarded request: the FHIR base at the api's public address (API_PUBLIC_URL,
 * never the request's Host header, which a client writes: a link in a Bundle must not point
 * elsewhere), the clinic's zone, and file URLs issued to the caller
 * with the files module's lifetime (FILE_URL_TTL_SECONDS), signed by the configured storage.
 */
export function fhirContextFor(deps: AppDeps, request: FastifyRequest): FhirContext {
  if (!request.auth) throw new Error('route is missing an auth guard');
  const issuedTo = { accountId: request.auth.accountId, role: request.auth.role };
  return {
    baseUrl: `${deps.config.apiPublicUrl}${FHIR_BASE}`,
    timeZone: deps.config.clinicTimeZone,
    today: isoDate(deps.clock.now(), deps.config.clinicTimeZone),
    fileUrl: (file) =>
      deps.storage.createDownloadUrl(file.storageKey, {
        fileName: file.fileName,
        expiresInSeconds: deps.config.files.urlTtlSeconds,
        issuedTo,
      }),
  };
}
