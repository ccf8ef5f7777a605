import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateOpenApiDocument } from '../src/openapi-document.js';

// Writes the document the web client's types are generated from (npm run gen:api).
const out = join(dirname(fileURLToPath(import.meta.url)), '../../web/src/api/openapi.json');
writeFileSync(out, await generateOpenApiDocument());
process.stdout.write(`wrote ${out}\n`);
