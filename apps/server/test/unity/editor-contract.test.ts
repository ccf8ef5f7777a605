// The editor's sign-in window reads the server's answers with JsonUtility into small [Serializable] classes:
// every field it declares must exist in the answer the server documents (the committed OpenAPI document, which
// the drift test keeps equal to the routes), or JsonUtility would silently leave it empty.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageDir } from './mono.js';

type Schema = { $ref?: string; type?: string; items?: Schema; properties?: Record<string, Schema> };

const source = readFileSync(join(packageDir, 'Editor/VRCLinkLoginWindow.cs'), 'utf8');

/** Field names of a [Serializable] class declared on one line in the editor script. */
function fieldsOf(className: string): string[] {
  const body = source.match(new RegExp(`class ${className} \\{([^}]*)\\}`))?.[1];
  if (!body) throw new Error(`class ${className} not found in VRCLinkLoginWindow.cs`);
  return [...body.matchAll(/public\s+[\w[\]]+\s+(\w+);/g)].map((m) => m[1]);
}

const doc = JSON.parse(readFileSync(join(__dirname, '../../../web/src/api/openapi.json'), 'utf8')) as {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
};

describe('the editor sign-in window reads fields the server sends', () => {
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop() ?? '']) : schema;
  const answer = (path: string, method: string) =>
    resolve(doc.paths[path][method].responses['200'].content['application/json'].schema);
  const props = (schema: Schema) => Object.keys(resolve(schema).properties ?? {});

  it.each([
    ['StartAnswer', () => props(answer('/api/sdk-login', 'get'))],
    ['PollAnswer', () => props(answer('/api/sdk-login', 'post'))],
    ['Guild', () => props(answer('/api/guilds', 'get').items ?? {})],
    ['WorldList', () => props(answer('/api/guilds/{guildId}/worlds', 'get'))],
    [
      'World',
      () =>
        props(resolve(answer('/api/guilds/{guildId}/worlds', 'get').properties?.worlds ?? {}).items ?? {}),
    ],
  ])('%s', (className, served) => {
    const fields = fieldsOf(className);
    expect(fields.length).toBeGreaterThan(0);
    expect(served()).toEqual(expect.arrayContaining(fields));
  });
});
