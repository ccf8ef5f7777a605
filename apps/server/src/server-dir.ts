import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder (apps/server). This module sits one level below it, and so does the bundle
 * `npm start` runs (apps/server/dist/main.mjs), so files outside the sources resolve the same from both.
 */
export const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');
