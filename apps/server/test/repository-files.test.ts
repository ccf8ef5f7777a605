import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Every file git tracks (the fresh clone another machine gets). */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
}

// A path of one particular machine: a home or workspace folder (VRChat's /home/user/… and /home/group/… web
// addresses are not). Built from pieces so this file does not name one itself.
const machinePath = new RegExp(
  `(^|[^A-Za-z0-9_.-])(${['/wo' + 'rk/', '/Us' + 'ers/', '/home/(?!user/|group/)[a-z]'].join('|')}|[A-Z]:\\\\Users\\\\)`,
);

describe('the repository as another machine clones it', () => {
  it('names no path of a particular machine in any tracked file', () => {
    const hits: string[] = [];
    for (const file of trackedFiles()) {
      if (file === 'package-lock.json' || file.endsWith('.png') || file.endsWith('.zip')) continue;
      const path = join(repoRoot, file);
      if (!existsSync(path)) continue;
      const text = readFileSync(path, 'utf8');
      if (!text.includes('/') && !text.includes('\\')) continue;
      text.split('\n').forEach((line, i) => {
        if (machinePath.test(line)) hits.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(hits).toEqual([]);
  });

  it('holds the platforms’ OpenAPI documents the contract tests use, each with its licence', () => {
    for (const platform of ['discord', 'vrchat']) {
      const dir = join(repoRoot, 'apps/simulator/test/contract/specs', platform);
      expect(JSON.parse(readFileSync(join(dir, 'openapi.json'), 'utf8')).openapi).toMatch(/^3\./);
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toMatch(/MIT License/);
    }
  });

  it('has a licence, and every package says which', () => {
    expect(readFileSync(join(repoRoot, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    for (const pkg of [
      'package.json',
      'apps/server/package.json',
      'apps/web/package.json',
      'apps/simulator/package.json',
    ])
      expect(JSON.parse(readFileSync(join(repoRoot, pkg), 'utf8')).license, pkg).toBe('MIT');
  });
});
