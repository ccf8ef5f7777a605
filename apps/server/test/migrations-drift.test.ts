import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const migrations = fileURLToPath(new URL('../drizzle', import.meta.url));

describe('committed migrations', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'vrclink-drift-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('match the Drizzle schema (run `npm run db:generate` after changing apps/server/src/db/schema)', () => {
    // drizzle-kit compares the schema with the last snapshot; on a copy, so nothing in the repo changes.
    const out = join(scratch, 'drizzle');
    cpSync(migrations, out, { recursive: true });
    const before = readdirSync(out).sort();
    const run = spawnSync(
      'npx',
      [
        'drizzle-kit',
        'generate',
        '--dialect',
        'postgresql',
        '--schema',
        'apps/server/src/db/schema/index.ts',
        '--out',
        relative(repoRoot, out),
      ],
      { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('No schema changes');
    expect(readdirSync(out).sort()).toEqual(before);
  });
});
