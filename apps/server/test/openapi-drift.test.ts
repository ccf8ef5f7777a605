import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../src/openapi-document.js';

const webApi = join(__dirname, '../../web/src/api');
const repoRoot = join(__dirname, '../../..');

describe('committed OpenAPI document', () => {
  it('matches what the server generates (run `npm run gen:api` after changing a route)', async () => {
    const committed = readFileSync(join(webApi, 'openapi.json'), 'utf8');
    expect(JSON.parse(committed)).toEqual(JSON.parse(await generateOpenApiDocument()));
    // Builds the whole app to generate the document: minutes on a loaded 2-core machine.
  }, 120_000);
});

describe('committed web client types (schema.d.ts)', () => {
  it('match what openapi-typescript makes of the committed document (run `npm run gen:api`)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrclink-schema-'));
    try {
      const out = join(dir, 'schema.d.ts');
      // The same command as `npm run gen:api`, written to a temporary file.
      await promisify(execFile)(
        process.execPath,
        [
          join(repoRoot, 'node_modules/openapi-typescript/bin/cli.js'),
          join(webApi, 'openapi.json'),
          '-o',
          out,
        ],
        { cwd: repoRoot },
      );
      expect(readFileSync(join(webApi, 'schema.d.ts'), 'utf8')).toBe(readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
