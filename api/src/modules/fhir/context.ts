import type { FastifyRequest } from 'fastify';
import { FHIR_BASE } from '@careloop/shared-contracts';
import { isoDate } from '../../clinical/age';
import type { AppDeps } from '../../deps';
import type { FhirContext } from '../../fhir';

/**
 * The FhirContext of a guarded request: the FHIR base at the api's public address (API_PUBLIC_URL,
 * never the request's Host header, which a client writes: a link in a Bundle must not point
 * elsewhere), and the clinic's zone. A file is referred to by its Binary (Binary/{id}, read with the
 * bearer token), never by a signed URL that would expire in an export.
 */
export function fhirContextFor(deps: AppDeps, request: FastifyRequest): FhirContext {
  if (!request.auth) throw new Error('route is missing an auth guard');
  return {
    baseUrl: `${deps.config.apiPublicUrl}${FHIR_BASE}`,
    timeZone: deps.config.clinicTimeZone,
    today: isoDate(deps.clock.now(), deps.config.clinicTimeZone),
  };
}
