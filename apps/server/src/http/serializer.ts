import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

type SerializerCompiler = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Production's response serializer: the route's zod schema as JSON Schema (its output side, as the OpenAPI
 * document shows it), compiled by fast-json-stringify on the route's first answer (compiling all of them at
 * start cost about 0.3 s of every start). Like zod's encode, it writes only the declared properties, but it
 * does not validate every answer: tests and development keep zod's serializer, which answers 500 on a response
 * that does not match its schema, so drift is caught there. A schema fast-json-stringify cannot take keeps
 * zod's serializer.
 */
export const compiledSerializerCompiler = (route: SerializerCompiler): ((data: unknown) => string) => {
  let serialize: ((data: unknown) => string) | undefined;
  const compile = () => {
    serialize ??= compileResponseSchema(route.schema as ZodType);
    if (!serialize) {
      uncompiledResponses.push(`${route.method} ${route.url} ${route.httpStatus}`);
      serialize = zodSerializerCompiler(route);
    }
    return serialize;
  };
  registered.push(compile);
  return (data) => (serialize ?? compile())(data);
};

const registered: Array<() => unknown> = [];

/** The responses that kept zod's serializer (`METHOD url status`), among those compiled so far. */
const uncompiledResponses: string[] = [];

/** Compiles every response registered so far (the tests' check); answers those that kept zod's serializer. */
export function compileAllResponses(): string[] {
  for (const compile of registered.splice(0)) compile();
  return uncompiledResponses;
}

/** fast-json-stringify's serializer for `schema`, or undefined when it has no JSON Schema form it takes. */
export function compileResponseSchema(schema: ZodType): ((data: unknown) => string) | undefined {
  try {
    const json = z.toJSONSchema(schema, {
      io: 'output',
      target: 'draft-7',
      unrepresentable: 'any',
      reused: 'inline',
    });
    return fastJson(withoutClosedObjects(json) as Parameters<typeof fastJson>[0]) as (
      data: unknown,
    ) => string;
  } catch {
    return undefined;
  }
}

/**
 * zod writes `additionalProperties: false` on every object. fast-json-stringify drops undeclared properties
 * anyway, but where it must choose a branch (a nullable object, a union) it validates the value first, and a
 * closed object made an answer carrying one extra stored field a 500 in production only (zod's serializer in
 * tests strips it). Open objects keep the output exactly the declared properties.
 */
function withoutClosedObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutClosedObjects);
  if (!schema || typeof schema !== 'object') return schema;
  const open: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    open[key] = withoutClosedObjects(value);
  }
  return open;
}
