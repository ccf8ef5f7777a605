import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../src/openapi-document.js';

describe('committed OpenAPI document', () => {
  it('matches what the server generates (run `npm run gen:api` after changing a route)', async () => {
    const committed = readFileSync(join(__dirname, '../../web/src/api/openapi.json'), 'utf8');
    expect(JSON.parse(committed)).toEqual(JSON.parse(await generateOpenApiDocument()));
  });
});
