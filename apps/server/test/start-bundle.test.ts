import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script (scripts/), without type declarations
import { buildServerIfChanged } from '../../../scripts/build-server-if-changed.mjs';
import { freePort, type ServerProcess, startServerProcess } from './server-process.js';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
// One level below apps/server, like apps/server/dist: the server finds its files from there.
const bundleDir = join(serverDir, `dist-test-${process.pid}`);

/** The bundle `npm start` runs (scripts/start.mjs → apps/server/dist/main.mjs), started as a process. */
describe('the start bundle', () => {
  let proc: ServerProcess;
  beforeAll(async () => {
    expect(await buildServerIfChanged({ force: true, outDir: bundleDir })).toBe(true);
    // Demo mode on the embedded database, as `npm start` on a fresh machine.
    proc = await startServerProcess(
      { DATABASE_URL: '', SIMULATOR_PORT: String(await freePort()) },
      { bundleDir },
    );
  }, 120_000);
  afterAll(async () => {
    await proc?.stop();
    rmSync(bundleDir, { recursive: true, force: true });
  });

  it('is not bundled again while its inputs are unchanged', async () => {
    expect(await buildServerIfChanged({ outDir: bundleDir })).toBe(false);
  });

  it('applies the migrations and serves the API in demo mode', async () => {
    const res = await fetch(`${proc.url}/api/config`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { demoMode: boolean }).demoMode).toBe(true);
  });

  it('finds the files beside its sources (the VPM package)', async () => {
    const listing = (await (await fetch(`${proc.url}/api/vpm/index.json`)).json()) as {
      packages: Record<string, { versions: Record<string, { url: string }> }>;
    };
    const versions = Object.values(Object.values(listing.packages)[0]!.versions);
    const zip = await fetch(versions[0]!.url.replace(/^https?:\/\/[^/]+/, proc.url));
    expect(zip.status).toBe(200);
    expect(
      Buffer.from(await zip.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
  });
});
