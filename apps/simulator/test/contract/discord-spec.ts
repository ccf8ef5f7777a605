import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Validates simulator responses against Discord's official OpenAPI 3.1 spec ("public preview").
 * Where the spec is stricter than Discord's written docs, the relaxation is listed in RELAXATIONS
 * with the reason; nothing is relaxed silently.
 */

type Json = Record<string, unknown>;

const here = dirname(fileURLToPath(import.meta.url));
/** The spec is vendored beside these tests (specs/README.md: source, licence); DISCORD_OPENAPI_SPEC names another. */
const SPEC_CANDIDATES = [
  process.env.DISCORD_OPENAPI_SPEC,
  resolve(here, 'specs/discord/openapi.json'),
].filter((p): p is string => Boolean(p));

function loadSpec(): Json {
  const path = SPEC_CANDIDATES.find((p) => existsSync(p));
  if (!path) throw new Error(`Discord OpenAPI spec not found; tried ${SPEC_CANDIDATES.join(', ')}`);
  return JSON.parse(readFileSync(path, 'utf8')) as Json;
}

const schemas = (spec: Json) => (spec.components as Json).schemas as Record<string, Json>;

/** Explicit, documented departures from the spec where the docs (which win) say otherwise. */
const RELAXATIONS: { why: string; apply: (spec: Json) => void }[] = [
  {
    why:
      'Field errors inside 50035 `errors` carry string codes such as "BASE_TYPE_REQUIRED" (docs: ' +
      'Reference → Error Messages example); the spec reuses Error, whose code is an integer.',
    apply: (spec) => {
      const inner = schemas(spec).InnerErrors as { properties: { _errors: Json } };
      inner.properties._errors = {
        type: 'array',
        items: {
          type: 'object',
          properties: { code: { type: ['string', 'integer'] }, message: { type: 'string' } },
          required: ['code', 'message'],
        },
      };
    },
  },
  {
    why:
      'The docs type platform_name and platform_username as "?string" (nullable); a user with no ' +
      'connection yet gets nulls, while the spec types platform_name as a plain string.',
    apply: (spec) => {
      const props = schemas(spec).ApplicationUserRoleConnectionResponse.properties as Json;
      props.platform_name = { type: ['string', 'null'] };
    },
  },
];

export const relaxations = RELAXATIONS.map((r) => r.why);

let cached: { spec: Json; ajv: Ajv2020 } | undefined;

function load() {
  if (cached) return cached;
  const spec = loadSpec();
  for (const r of RELAXATIONS) r.apply(spec);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  // OpenAPI/Discord-specific formats.
  ajv.addFormat('snowflake', /^(0|[1-9][0-9]*)$/);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('nonce', /^.{0,25}$/);
  ajv.addSchema({ ...spec, $id: 'discord' });
  cached = { spec, ajv };
  return cached;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Turns a Fastify route (`/api/v10/guilds/:guild_id`) into the spec's template (`/guilds/{guild_id}`). */
export function toSpecTemplate(route: string): string {
  return route
    .replace(/^\/api\/v10/, '')
    .replace(/^\/api/, '')
    .replace(/:([a-z_]+)\??/g, '{$1}');
}

export function specHasOperation(method: string, pathTemplate: string): boolean {
  const { spec } = load();
  const item = (spec.paths as Record<string, Json>)[pathTemplate];
  return Boolean(item?.[method.toLowerCase()]);
}

/**
 * Throws unless `method pathTemplate` is a spec operation that documents `status` and `body`
 * matches that response's schema (responses without content must have an empty body).
 */
export function expectMatchesDiscordSpec(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
): void {
  const { spec, ajv } = load();
  const m = method.toLowerCase();
  const op = (spec.paths as Record<string, Json>)[pathTemplate]?.[m] as Json | undefined;
  if (!op)
    throw new Error(`${method.toUpperCase()} ${pathTemplate} is not an operation in Discord's OpenAPI spec`);
  const responses = op.responses as Record<string, Json>;
  const key = String(status) in responses ? String(status) : `${String(status)[0]}XX`;
  let response = responses[key];
  if (!response)
    throw new Error(`${method.toUpperCase()} ${pathTemplate} does not document status ${status}`);
  let pointer = `#/paths/${escapePointer(pathTemplate)}/${m}/responses/${key}`;
  if (typeof response.$ref === 'string') {
    pointer = response.$ref;
    const name = pointer.split('/').pop()!;
    response = ((spec.components as Json).responses as Record<string, Json>)[name];
  }
  const content = response.content as Record<string, unknown> | undefined;
  if (!content?.['application/json']) {
    if (body !== undefined && body !== '' && body !== null)
      throw new Error(
        `${method.toUpperCase()} ${pathTemplate} ${status} has no body in the spec, got ${JSON.stringify(body)}`,
      );
    return;
  }
  const ref = `discord${pointer}/content/application~1json/schema`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body)) {
    const errors = ajv.errorsText(validate.errors, { separator: '\n  ' });
    throw new Error(
      `${method.toUpperCase()} ${pathTemplate} ${status} does not match the spec:\n  ${errors}\nbody: ${JSON.stringify(body).slice(0, 1500)}`,
    );
  }
}
