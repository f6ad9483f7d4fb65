import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Resource } from '@medplum/fhirtypes';
import { ENDPOINTS, FHIR_BASE, FHIR_MIME, type FhirResource } from '@careloop/shared-contracts';
import type { z } from 'zod';
import { accessFor } from '../../access';
import type { AppDeps } from '../../deps';
import {
  acceptsFhirJson,
  binaryAnswer,
  binaryFile,
  capabilityStatement,
  JSON_ONLY,
  operationOutcome,
  patientEverything,
  readResource,
  searchResources,
  toBinary,
} from '../../fhir';
import { route } from '../../http/route';
import { HttpError } from '../../lib/errors';
import { fhirContextFor } from './context';

/**
 * The read-only FHIR R4 api (issue 15) under /fhir/R4:
 *   GET /fhir/R4/metadata                   the CapabilityStatement (public)
 *   GET /fhir/R4/Patient/{id}/$everything   everything on a patient, a searchset Bundle (_since, _type, start, end, _count)
 *   GET /fhir/R4/{type}?patient=…           search (R4 search parameters; unknown ones ignored, or 400 with Prefer: handling=strict)
 *   GET /fhir/R4/Binary/{id}                an uploaded PDF: a Binary resource, or the PDF itself (Accept)
 *   GET /fhir/R4/{type}/{id}                read
 * Who may see what, the 404s and the audit rows are the access layer's (the same rules as the app);
 * the resources are api/src/fhir's. Bodies are application/fhir+json, errors OperationOutcomes.
 */
/** A built resource as the contract's loose FHIR body (the tests validate it against R4 itself). */
const body = (resource: Resource) => resource as unknown as z.infer<typeof FhirResource>;

export function fhirRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Before the guard: a client that cannot read JSON is told so whoever it is (FHIR R4 http 3.1.0.1.10).
    app.addHook('onRequest', async (request, reply) => {
      const raw = (request.query as Record<string, unknown> | undefined)?._format;
      const format = raw === undefined ? undefined : String(raw);
      // a Binary may also be asked for as the PDF it is
      const ok = request.url.startsWith(`${FHIR_BASE}/Binary/`)
        ? binaryAnswer(request.headers.accept, format) !== null
        : acceptsFhirJson(request.headers.accept, format);
      if (!ok) return reply.code(406).send(operationOutcome(406, JSON_ONLY));
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      if (reply.getHeader('content-type') !== 'application/pdf') reply.header('content-type', `${FHIR_MIME}; charset=utf-8`);
      return payload;
    });
    // Scoped to these routes: their errors leave as OperationOutcomes; 5xx go on to the app's handler.
    app.setErrorHandler((err: FastifyError, _request, reply) => {
      if (hasZodFastifySchemaValidationErrors(err)) {
        const message = err.validation
          .map((i) => `${i.instancePath.replace(/^\//, '') || err.validationContext || 'request'}: ${i.message}`)
          .join('; ');
        return reply.code(400).send(operationOutcome(400, message));
      }
      const status = err instanceof HttpError ? err.statusCode : (err.statusCode ?? 500);
      if (status >= 400 && status < 500) return reply.code(status).send(operationOutcome(status, err.message));
      throw err;
    });

    route(app, deps, ENDPOINTS.fhirMetadata, async () => body(capabilityStatement(deps.config.apiPublicUrl, deps.clock.now())));

    route(app, deps, ENDPOINTS.fhirPatientEverything, async (request) =>
      body(await patientEverything(accessFor(deps, request), request.params.id, fhirContextFor(deps, request), request.query)),
    );

    route(app, deps, ENDPOINTS.fhirSearch, async (request) =>
      body(
        await searchResources(
          accessFor(deps, request),
          request.params.type,
          request.query,
          fhirContextFor(deps, request),
          { role: request.auth!.role, accountId: request.auth!.accountId },
          /\bhandling\s*=\s*strict\b/i.test(String(request.headers.prefer ?? '')),
        ),
      ),
    );

    route(app, deps, ENDPOINTS.fhirBinary, async (request, reply) => {
      const file = await binaryFile(accessFor(deps, request), request.params.id);
      const bytes = await deps.storage.read(file.storageKey);
      const raw = (request.query as Record<string, unknown>)._format;
      if (binaryAnswer(request.headers.accept, raw === undefined ? undefined : String(raw)) === 'resource')
        return reply.send(body(toBinary(file, bytes)));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'inline')
        .header('x-content-type-options', 'nosniff')
        .send(bytes as never);
    });

    route(app, deps, ENDPOINTS.fhirRead, async (request) =>
      body(await readResource(accessFor(deps, request), request.params.type, request.params.id, fhirContextFor(deps, request))),
    );
  };
}
