import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { ENDPOINTS, PDF_MIME, routePattern, type Endpoint } from 'shared-contracts';
import { routeSchema } from './route';

/** `/prescription/:patientId` and `/prescription/:id` have one shape: `/prescription/:`. */
const shapeOf = (method: string, url: string) => `${method} ${url.replace(/:\w+/g, ':')}`;

const BY_SHAPE = new Map<string, Endpoint>(Object.values(ENDPOINTS).map((e) => [shapeOf(e.method, routePattern(e.path)), e]));

/** The contract endpoint a registered route serves, if any. */
export function endpointOf(method: string, url: string): Endpoint | undefined {
  return BY_SHAPE.get(shapeOf(method, url));
}

/**
 * The OpenAPI operation of every route comes from its contract endpoint (path and parameter
 * names, operationId, security, schemas); the raw PDF answer (`response: null`) is added here.
 */
export const contractTransform: SwaggerTransform = (input) => {
  const methods = ([] as string[]).concat(input.route.method);
  const e = endpointOf(methods[0], input.url);
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
