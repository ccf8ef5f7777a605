import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv as parseDotenv } from 'node:util';

/** Read in this order, a later file winning over an earlier one; the environment wins over both. */
export const ENV_FILES = ['.env', '.env.local'] as const;

/**
 * The environment with `.env` and `.env.local` of `dir` (the working directory) beneath it: a variable the
 * environment sets keeps its value, even empty (an operator's `PORT= npm start` means "unset", not the file's).
 * Node's own dotenv parser (`util.parseEnv`, Node ≥ 20.12): no package, the syntax `node --env-file` reads.
 */
export function withEnvFiles(
  env: NodeJS.ProcessEnv = process.env,
  dir: string = process.cwd(),
): NodeJS.ProcessEnv {
  const fromFiles: Record<string, string> = {};
  for (const name of ENV_FILES) Object.assign(fromFiles, readEnvFile(join(dir, name)));
  return { ...fromFiles, ...env };
}

function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`Invalid configuration:\n  ${path}: cannot be read (${(err as Error).message})`);
  }
  return parseDotenv(text) as Record<string, string>;
}
