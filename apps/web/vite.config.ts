import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiPort = process.env.PORT ?? '3000';

/** `METHOD /path` → operationId, so the client's missing-parameter error can name the operation. */
function readOperationIds(): Record<string, string> {
  const file = fileURLToPath(new URL('./src/api/openapi.json', import.meta.url));
  if (!existsSync(file)) return {};
  const doc = JSON.parse(readFileSync(file, 'utf8')) as {
    paths?: Record<string, Record<string, { operationId?: string }>>;
  };
  const ids: Record<string, string> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation?.operationId) ids[`${method.toUpperCase()} ${path}`] = operation.operationId;
    }
  }
  return ids;
}

export default defineConfig({
  root: webRoot,
  plugins: [react()],
  define: {
    __VRCLINK_OPERATION_IDS__: JSON.stringify(readOperationIds()),
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
