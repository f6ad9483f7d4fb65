import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type CompilerInput = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Writes each answer with fast-json-stringify, compiled ONCE per route and status from the JSON
 * Schema of the contract's response (the schema the OpenAPI document shows): only the properties
 * the contract declares are written, so nothing a handler holds beyond them can leak, and no
 * per-request walk of the zod schema is made (on a page of ten records that walk cost more than
 * the database). A schema JSON Schema cannot express (a transform, an `undefined`) keeps the zod
 * serializer. What the contract promises about an answer's shape is proven by the tests, which
 * parse answers with the contract's zod schemas.
 */
export function serializerCompiler(input: CompilerInput): (data: unknown) => string {
  const schema = input.schema as unknown;
  if (!(schema instanceof z.ZodType)) return zodSerializerCompiler(input);
  let json: unknown;
  try {
    json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
  } catch {
    return zodSerializerCompiler(input);
  }
  return fastJson(json as Parameters<typeof fastJson>[0]);
}
