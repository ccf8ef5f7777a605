import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Validates simulator responses against the community VRChat OpenAPI 3.0.3 spec.
 *
 * - OAS 3.0 `nullable: true` becomes a JSON-Schema type union (or `anyOf` with null for `$ref`s,
 *   whose siblings draft-07 ignores).
 * - Strict by default: objects with declared `properties` get `additionalProperties: false`, so the
 *   simulator can't drift into fields the spec doesn't know (a typo like `dateJoined` fails).
 * - Error statuses the operation doesn't document (VRChat answers 403/429 almost anywhere) must still
 *   be the spec's `Error` envelope; undocumented success statuses fail.
 */

type Json = Record<string, unknown>;

const here = dirname(fileURLToPath(import.meta.url));
/** The spec is vendored beside these tests (specs/README.md: source, licence); VRCHAT_OPENAPI_SPEC names another. */
const SPEC_CANDIDATES = [process.env.VRCHAT_OPENAPI_SPEC, resolve(here, 'specs/vrchat/openapi.json')].filter(
  (p): p is string => Boolean(p),
);

function loadSpec(): Json {
  const path = SPEC_CANDIDATES.find((p) => existsSync(p));
  if (!path) throw new Error(`VRChat OpenAPI spec not found; tried ${SPEC_CANDIDATES.join(', ')}`);
  return JSON.parse(readFileSync(path, 'utf8')) as Json;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** OAS 3.0 schema → draft-07 schema that Ajv validates as the spec means it. */
export function toJsonSchema(schema: unknown, strict: boolean): unknown {
  if (!isObj(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example' || key === 'examples' || key === 'discriminator' || key.startsWith('x-')) continue;
    if (key === 'properties' && isObj(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, toJsonSchema(v, strict)]),
      );
    } else if ((key === 'allOf' || key === 'oneOf' || key === 'anyOf') && Array.isArray(value)) {
      out[key] = value.map((v) => toJsonSchema(v, strict));
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isObj(value)) {
      out[key] = toJsonSchema(value, strict);
    } else if (key !== 'nullable') {
      out[key] = value;
    }
  }
  if (strict && isObj(out.properties) && out.additionalProperties === undefined)
    out.additionalProperties = false;
  if (schema.nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  // `$ref` / `allOf` + nullable: wrap, keeping only the annotation keywords outside.
  const { description, title, default: dflt, ...rest } = out;
  return { description, title, default: dflt, anyOf: [rest, { type: 'null' }] };
}

interface Loaded {
  strict: boolean;
  spec: Json;
  paths: Record<string, Record<string, Json>>;
  responses: Record<string, Json>;
  ajv: Ajv;
  compiled: Map<string, ValidateFunction>;
}
const cache = new Map<boolean, Loaded>();

function load(strict: boolean): Loaded {
  const hit = cache.get(strict);
  if (hit) return hit;
  const spec = loadSpec();
  const components = spec.components as { schemas: Record<string, unknown>; responses: Record<string, Json> };
  const schemas = Object.fromEntries(
    Object.entries(components.schemas).map(([name, s]) => [name, toJsonSchema(s, strict)]),
  );
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'vrchat', components: { schemas } });
  const loaded: Loaded = {
    strict,
    spec,
    paths: spec.paths as Record<string, Record<string, Json>>,
    responses: components.responses,
    ajv,
    compiled: new Map(),
  };
  cache.set(strict, loaded);
  return loaded;
}

/** Rewrites local refs so inline schemas resolve against the registered components. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!isObj(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `vrchat${v}` : rebase(v),
    ]),
  );
}

/** Turns a Fastify route (`/api/1/groups/:groupId`) into the spec's template (`/groups/{groupId}`). */
export function toSpecTemplate(route: string): string {
  return route.replace(/^\/api\/1/, '').replace(/:(\w+)\??/g, '{$1}');
}

export function specHasOperation(method: string, pathTemplate: string): boolean {
  return Boolean(load(true).paths[pathTemplate]?.[method.toLowerCase()]);
}

export function operationId(method: string, pathTemplate: string): string | undefined {
  return load(true).paths[pathTemplate]?.[method.toLowerCase()]?.operationId as string | undefined;
}

function validator(loaded: Loaded, key: string, schema: unknown): ValidateFunction {
  let validate = loaded.compiled.get(key);
  if (!validate) {
    validate = loaded.ajv.compile(rebase(toJsonSchema(schema, loaded.strict)) as Json);
    loaded.compiled.set(key, validate);
  }
  return validate;
}

function check(loaded: Loaded, key: string, schema: unknown, body: unknown, what: string): void {
  const validate = validator(loaded, key, schema);
  if (!validate(body)) {
    const errors = loaded.ajv.errorsText(validate.errors, { separator: '\n  ' });
    throw new Error(
      `${what} does not match the spec:\n  ${errors}\nbody: ${JSON.stringify(body).slice(0, 1500)}`,
    );
  }
}

/**
 * Throws unless `method pathTemplate` is an operation in the VRChat spec and `body` matches the
 * schema it documents for `status`. Responses without content must have an empty body.
 */
export function expectMatchesVrchatSpec(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
  { strict = true }: { strict?: boolean } = {},
): void {
  const loaded = load(strict);
  const what = `${method.toUpperCase()} ${pathTemplate} ${status}`;
  const op = loaded.paths[pathTemplate]?.[method.toLowerCase()];
  if (!op)
    throw new Error(`${method.toUpperCase()} ${pathTemplate} is not an operation in VRChat's OpenAPI spec`);
  let response = (op.responses as Record<string, Json>)[String(status)];
  if (!response) {
    if (status >= 400) {
      expectVrchatError(status, body);
      return;
    }
    throw new Error(`${what}: the spec does not document this status`);
  }
  if (typeof response.$ref === 'string') response = loaded.responses[response.$ref.split('/').pop()!];
  const schema = (response.content as Record<string, { schema?: unknown }> | undefined)?.['application/json']
    ?.schema;
  if (!schema) {
    if (body !== undefined && body !== '' && body !== null)
      throw new Error(`${what} has no body in the spec, got ${JSON.stringify(body)}`);
    return;
  }
  check(loaded, `${method} ${pathTemplate} ${status}`, schema, body, what);
  if (status >= 400) expectVrchatError(status, body);
}

/** VRChat's error envelope: the spec's `Error` schema, plus a message and a status_code equal to the HTTP status. */
export function expectVrchatError(status: number, body: unknown): void {
  const loaded = load(true);
  check(loaded, 'Error', { $ref: '#/components/schemas/Error' }, body, `error ${status}`);
  const error = (body as { error?: { message?: unknown; status_code?: unknown } }).error;
  if (typeof error?.message !== 'string' || !error.message)
    throw new Error(`error ${status} has no message: ${JSON.stringify(body)}`);
  if (error.status_code !== status)
    throw new Error(`error envelope status_code ${String(error.status_code)} differs from HTTP ${status}`);
}
