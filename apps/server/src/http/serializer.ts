import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

type SerializerCompiler = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Production's response serializer: the route's zod schema as JSON Schema (its output side, as the OpenAPI
 * document shows it), compiled once by fast-json-stringify. Like zod's encode, it writes only the declared
 * properties, but it does not validate every answer: tests and development keep zod's serializer, which
 * answers 500 on a response that does not match its schema, so drift is caught there. A schema
 * fast-json-stringify cannot take keeps zod's serializer.
 */
export const compiledSerializerCompiler = (route: SerializerCompiler): ((data: unknown) => string) => {
  const compiled = compileResponseSchema(route.schema as ZodType);
  if (compiled) return compiled;
  uncompiledResponses.push(`${route.method} ${route.url} ${route.httpStatus}`);
  return zodSerializerCompiler(route);
};

/** The responses that kept zod's serializer (`METHOD url status`): the tests expect none. */
export const uncompiledResponses: string[] = [];

/** fast-json-stringify's serializer for `schema`, or undefined when it has no JSON Schema form it takes. */
export function compileResponseSchema(schema: ZodType): ((data: unknown) => string) | undefined {
  try {
    const json = z.toJSONSchema(schema, {
      io: 'output',
      target: 'draft-7',
      unrepresentable: 'any',
      reused: 'inline',
    });
    return fastJson(json as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
  } catch {
    return undefined;
  }
}
