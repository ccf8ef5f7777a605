// `npm start`: brings the web build and the server bundle up to date (each only when its inputs changed since
// its last build), then runs the server in this same process.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServerIfChanged, serverDist } from './build-server-if-changed.mjs';
import { buildWebIfChanged } from './build-web-if-changed.mjs';

try {
  buildWebIfChanged();
  await buildServerIfChanged();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
await import(pathToFileURL(join(serverDist, 'polyfills.mjs')).href);
await import(pathToFileURL(join(serverDist, 'main.mjs')).href);
