import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverDir } from '../../src/server-dir.js';

/** The world SDK package folder the VPM listing zips. */
export const packageDir = join(serverDir, 'assets/vpm/com.vrclink.worlds-sdk');

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/**
 * Whether Mono's C# compiler can run here. Locally a missing `mcs` skips the C# tests with a message;
 * in CI (CI=true, where .ci/run installs mono-mcs) it fails them instead.
 */
export function monoStatus(): { available: boolean; reason: string } {
  if (has('mcs') && has('mono')) return { available: true, reason: '' };
  const reason = 'Mono is not installed (`apt-get install -y mono-mcs`): the C# world SDK tests cannot run.';
  if (process.env.CI === 'true') throw new Error(`${reason} CI must run them.`);
  console.warn(`SKIPPED: ${reason}`);
  return { available: false, reason };
}

/** Compiles C# sources with mcs into a fresh temporary folder; mcs's diagnostics become the error message. */
export function compileCSharp(
  sources: string[],
  options: { target: 'exe' | 'library'; defines?: string[]; out: string },
): string {
  const dir = mkdtempSync(join(tmpdir(), 'vrclink-cs-'));
  const out = join(dir, options.out);
  const args = [
    '-nologo',
    '-warnaserror+',
    `-target:${options.target}`,
    `-out:${out}`,
    ...(options.defines ?? []).map((d) => `-define:${d}`),
    ...sources,
  ];
  try {
    execFileSync('mcs', args, { encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`mcs failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  return out;
}
