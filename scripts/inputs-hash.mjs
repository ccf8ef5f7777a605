// The hash `npm start` compares with a build's stamp to decide whether to build again: every file under the
// given paths (relative to the repository), by path and content; node_modules and test files are left out.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const skipped = (name) => name === 'node_modules' || /\.test\.tsx?$/.test(name);

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    skipped(entry.name) ? [] : files(join(path, entry.name)),
  );
}

export function inputsHash(inputs) {
  const hash = createHash('sha256');
  const all = inputs.flatMap((input) => files(join(repoRoot, input))).sort();
  for (const file of all) {
    hash.update(relative(repoRoot, file).replaceAll('\\', '/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The stamp a build left (its inputs' hash), or undefined when there is none. */
export function readStamp(stampFile) {
  return existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : undefined;
}
