import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiPort = process.env.PORT ?? '3000';

interface OpenApiSchema {
  enum?: unknown[];
  properties?: Record<string, OpenApiSchema>;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, { operationId?: string }>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

function readOpenApi(): OpenApiDocument {
  const file = fileURLToPath(new URL('./src/api/openapi.json', import.meta.url));
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument) : {};
}
const openApi = readOpenApi();

/** `METHOD /path` → operationId, so the client's missing-parameter error can name the operation. */
function readOperationIds(doc: OpenApiDocument): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation?.operationId) ids[`${method.toUpperCase()} ${path}`] = operation.operationId;
    }
  }
  return ids;
}

/** `Schema` and `Schema.property` → the enum's values, so lists of permissions and actions are not typed by hand. */
function readSchemaEnums(doc: OpenApiDocument): Record<string, unknown[]> {
  const enums: Record<string, unknown[]> = {};
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    if (schema.enum) enums[name] = schema.enum;
    for (const [property, value] of Object.entries(schema.properties ?? {}))
      if (value.enum) enums[`${name}.${property}`] = value.enum;
  }
  return enums;
}

export default defineConfig({
  root: webRoot,
  plugins: [react()],
  define: {
    __VRCLINK_OPERATION_IDS__: JSON.stringify(readOperationIds(openApi)),
    __VRCLINK_SCHEMA_ENUMS__: JSON.stringify(readSchemaEnums(openApi)),
  },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks cache better. Only the libraries the first
        // page needs ($initial): the rest stay with the lazily loaded pages that use them (App routes).
        codeSplitting: {
          groups: [
            { name: 'mantine', test: /node_modules[\\/]@mantine/, tags: ['$initial'] },
            { name: 'vendor', test: /node_modules/, tags: ['$initial'] },
            { name: 'app', tags: ['$initial'] },
          ],
        },
      },
    },
  },
});
