import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { ENDPOINTS, PDF_MIME, routePattern, type Endpoint } from '@careloop/shared-contracts';
import { routeSchema } from './route';

/** The contract endpoint a route serves: route() (./route.ts) names it by its operationId. */
function endpointOf(schema: { operationId?: unknown } | undefined): Endpoint | undefined {
  const id = schema?.operationId;
  return typeof id === 'string' && Object.hasOwn(ENDPOINTS, id) ? (ENDPOINTS as Record<string, Endpoint>)[id] : undefined;
}

/**
 * The OpenAPI operation of every route comes from its contract endpoint (path and parameter
 * names, operationId, security, schemas); the raw PDF answer (`response: null`) is added here.
 */
export const contractTransform: SwaggerTransform = (input) => {
  const e = endpointOf(input.schema as { operationId?: unknown } | undefined);
  if (!e) return jsonSchemaTransform(input);
  const out = jsonSchemaTransform({ ...input, url: routePattern(e.path), schema: { ...routeSchema(e), hide: false } });
  if (e.response !== null) return out;
  // Not JSON (the PDF itself): documented here only, since no schema serializes a stream.
  const pdf = {
    description: e.description ?? e.summary,
    content: { [PDF_MIME]: { schema: { type: 'string', format: 'binary' } } },
  };
  return { ...out, schema: { ...out.schema, response: { ...(out.schema.response as object), [e.status]: pdf } } };
};
