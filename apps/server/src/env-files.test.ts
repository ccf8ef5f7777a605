import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv as parseDotenv } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runMainToExit } from '../test/server-process.js';
import { envSchema, parseEnv } from './env.js';
import { withEnvFiles } from './env-files.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vrclink-env-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('configuration files', () => {
  it('reads .env, then .env.local over it, and the environment over both', () => {
    const dir = dirWith({
      '.env': 'PORT=4000\nLOG_LEVEL=debug\nCONTACT_EMAIL=a@example.com # the privacy contact\n',
      '.env.local': 'LOG_LEVEL=warn\nSUPPORT_URL="https://example.com/help"\n',
    });
    const env = parseEnv(withEnvFiles({ CONTACT_EMAIL: 'b@example.com' }, dir));
    expect(env).toMatchObject({
      PORT: 4000,
      LOG_LEVEL: 'warn',
      CONTACT_EMAIL: 'b@example.com',
      SUPPORT_URL: 'https://example.com/help',
    });
  });

  it('keeps a variable the environment sets to empty instead of taking the file’s', () => {
    const dir = dirWith({ '.env': 'HOST=0.0.0.0\n' });
    expect(withEnvFiles({ HOST: '' }, dir).HOST).toBe('');
  });

  it('runs without either file', () => {
    expect(parseEnv(withEnvFiles({}, dirWith({}))).PORT).toBe(3000);
  });

  // A generous limit: the child compiles the server with tsx, which took 36 s on a CPU-loaded machine.
  it('is read by the server from its working directory (a bad PORT in .env stops it with the list)', {
    timeout: 120_000,
  }, async () => {
    const dir = dirWith({ '.env': 'PORT=not-a-port\nLOG_LEVEL=silent\n' });
    const run = await runMainToExit({ PATH: process.env.PATH }, dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('PORT:');
  });

  it('.env.example names every variable, and each one it sets has the default', () => {
    const text = readFileSync(join(repoRoot, '.env.example'), 'utf8');
    const named = new Set([...text.matchAll(/^(?:# ?)?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    const missing = Object.keys(envSchema.shape).filter((key) => !named.has(key));
    expect(missing).toEqual([]);
    const defaults = parseEnv({});
    const set = parseDotenv(text);
    for (const [key, value] of Object.entries(set)) {
      const expected = defaults[key as keyof typeof defaults];
      const asText = Array.isArray(expected) ? expected.join(',') : String(expected);
      expect(`${key}=${value}`).toBe(`${key}=${asText}`);
    }
  });
});
