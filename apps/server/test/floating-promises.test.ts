import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverDir } from '../src/server-dir.js';
import { floatingPromisesIn, sourcesBelow } from './floating-promises.js';

const repoDir = join(serverDir, '..', '..');

describe('floating promises (an unhandled rejection ends the process)', () => {
  it('finds none in the server and the simulator', () => {
    const files = {
      ...sourcesBelow(repoDir, join(serverDir, 'src')),
      ...sourcesBelow(repoDir, join(repoDir, 'apps', 'simulator', 'src')),
    };
    expect(Object.keys(files).length).toBeGreaterThan(300);
    const found = Object.entries(files).flatMap(([file, source]) => floatingPromisesIn(file, source));
    expect(found.map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual([]);
  });

  it('refuses each dropped shape and accepts the handled ones', () => {
    const source = [
      'void next.finally(() => cleanUp());', // 1: the shape that ended the process
      'void work();', // 2
      'void p.then(() => 1);', // 3
      'const all = () => void catchUp([]);', // 4
      'p.finally(() => {});', // 5
      'p.then(() => {});', // 6
      'void work().catch((err) => log(err));',
      'void p.then(done, failed);',
      'work().catch(() => {});',
      'p.then(done, failed);',
      'work().catch(log).finally(loop);',
      'await p.finally(() => {});',
      'return void (await next.end());',
      'const x = void 0;',
    ].join('\n');
    expect(floatingPromisesIn('x.ts', source).map((f) => f.line)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
