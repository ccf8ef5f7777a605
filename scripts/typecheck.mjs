#!/usr/bin/env node
// The TypeScript check of every project, as many at a time as the machine has cores: each `tsc` uses one core,
// and one after another they left the other core idle for a minute of CI (issue #34).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
// The biggest first, so the last to start is a small one.
const projects = ['apps/server', 'apps/web', 'e2e', 'bench', 'apps/simulator'];

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => resolve({ project, code, output }));
  });
}

const queue = [...projects];
const failed = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), projects.length) }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      const result = await check(project);
      if (result.output) process.stdout.write(result.output);
      if (result.code !== 0) failed.push(project);
    }
  }),
);
if (failed.length > 0) {
  console.error(`The type check failed in ${failed.join(', ')}.`);
  process.exit(1);
}
