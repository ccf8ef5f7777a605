import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverDir } from '../src/server-dir.js';

const repoRoot = join(serverDir, '..', '..');
const biome = join(repoRoot, 'node_modules', '.bin', 'biome');

/**
 * Biome's `noImportCycles` fails `npm run lint` on a cycle anywhere in the repository (apps/server/src and apps/web/src among it): a fixture project
 * with the repository's own biome.json and two files, linted with and without a cycle between them.
 */
describe("Biome's noImportCycles (biome.json)", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  function lintFixture(files: Record<string, string>) {
    const dir = mkdtempSync(join(tmpdir(), 'vrclink-cycles-'));
    dirs.push(dir);
    const config = JSON.parse(readFileSync(join(repoRoot, 'biome.json'), 'utf8'));
    delete config.$schema;
    writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const run = spawnSync(biome, ['lint', '--max-diagnostics=50', '.'], { cwd: dir, encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  const kernel = "export function audit(): string {\n  return 'kernel';\n}\n";
  const wing =
    "import { audit } from '../../kernel/audit.js';\n\nexport const outbox = (): string => audit();\n";

  it('fails on a cycle in the server and in the web app', () => {
    for (const app of ['apps/server/src', 'apps/web/src']) {
      const { status, output } = lintFixture({
        [`${app}/kernel/audit.ts`]: `import { outbox } from '../wings/admin/outbox.js';\n\nexport const audit = (): string => typeof outbox;\n`,
        [`${app}/wings/admin/outbox.ts`]: wing,
      });
      expect(output).toContain('lint/suspicious/noImportCycles');
      expect(status).not.toBe(0);
    }
  });

  it('passes the same files when imports go one way', () => {
    const { status, output } = lintFixture({
      'apps/server/src/kernel/audit.ts': kernel,
      'apps/server/src/wings/admin/outbox.ts': wing,
    });
    expect(output).not.toContain('noImportCycles');
    expect(status).toBe(0);
  });
});
