import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, newWorld, updateWorld } from '../../../../test/factories.js';
import type { JobDefinition } from '../../../jobs/define.js';
import { worldsMirrorHandler } from '../../../jobs/handlers/worlds-mirror.js';
import { createJobQueue } from '../../../jobs/pg-boss-queue.js';
import { startJobWorker } from '../../../jobs/worker.js';
import { readMirroredWorld } from './mirror-serve.js';
import { runWorldMirror } from './world-mirror.service.js';

const ADMIN = '1300000000000009998';
const { hangout } = seedGuildIds;
const base = `/api/guilds/${hangout.id}/worlds`;
const ORIGIN = 'http://127.0.0.1:3000';

describe('the world mirror (demo mode: a bare repository under DATA_DIR)', () => {
  let t: TestApp, owner: { session: string };
  let admin: { session: string };
  let dataDir: string;
  let bare: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vrclink-mirror-'));
    bare = join(dataDir, 'world-mirror.git');
    ({ t, owner } = await appWithHangoutOwner({
      ...laxSimulator.forManyDiscordCalls,
      env: { ADMIN_DISCORD_IDS: ADMIN, DATA_DIR: dataDir },
    }));
    admin = await signIn(t, { id: ADMIN, username: 'root' });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sh = (...args: string[]) => execFileSync('git', ['-C', bare, ...args], { encoding: 'utf8' }).trim();
  const commits = () => Number(sh('rev-list', '--count', 'refs/heads/main'));
  /** Every file version any ref of the mirror reaches. */
  const history = () => sh('log', '--all', '--format=', '--name-only', '-p');
  const files = () => sh('ls-tree', '-r', '--name-only', 'refs/heads/main').split('\n');
  const mirrored = (id: string) => sh('show', `refs/heads/main:worlds/${id}`);
  const createWorld = () => newWorld(t, hangout.id, owner);
  const update = (id: string, payload: object) => updateWorld(t, { guildId: hangout.id, id }, owner, payload);
  /** What /data/v2 serves (the Untrusted URL) and what the demo's mirror serves (the Trusted URL). */
  const download = async (id: string) => (await t.app.inject({ method: 'GET', url: `/data/v2/${id}` })).body;
  const trusted = (id: string) => t.app.inject({ method: 'GET', url: `/mirror/worlds/${id}` });
  const status = async (session = admin.session) =>
    t.inject({ method: 'GET', url: '/api/admin/world-mirror', session });

  let first: string;
  let second: string;

  it('pushes worlds/{guid} of a world with Github Updates Enabled, exactly the body /data/v2 serves', async () => {
    first = await createWorld();
    const off = await createWorld();
    const world = await update(first, { enabled: true, customData: 'mirrored' });
    expect(world.trustedUrl).toBe(`${ORIGIN}/mirror/worlds/${first}`);

    const result = await runWorldMirror(t.ctx);
    expect(result).toMatchObject({ written: 1, removed: 0, worlds: 1 });
    expect(files().sort()).toEqual(['.nojekyll', `worlds/${first}`]);
    expect(mirrored(first)).toBe(await download(first));
    expect(result?.commit).toBe(sh('rev-parse', 'refs/heads/main'));

    const served = await trusted(first);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.body).toBe(await download(first));
    const missing = await trusted(off);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(missing.body).toBe(
      'This world is not in the mirror yet: it needs Github Updates Enabled, and the mirror updates every 10 minutes.',
    );
    expect((await trusted('not-a-guid')).statusCode).toBe(400);
  });

  it('makes no commit when nothing changed, and one commit for changes to two worlds', async () => {
    expect((await runWorldMirror(t.ctx))?.commit).toBeNull();
    expect(commits()).toBe(1);

    second = await createWorld();
    await update(second, { enabled: true, compression: true });
    await update(first, { customData: 'changed' });
    expect(await runWorldMirror(t.ctx)).toMatchObject({ written: 2, removed: 0, worlds: 2 });
    // Each run replaces the branch: one commit, the first body of `first` no longer reachable.
    expect(commits()).toBe(1);
    expect(history()).not.toContain('mirrored');
    expect(mirrored(first)).toBe(await download(first));
    // The compressed body too, byte for byte.
    expect(mirrored(second)).toBe(await download(second));
    expect((await trusted(second)).body).toBe(await download(second));
  });

  it('removes a world whose Github Updates were turned off, and a world deleted', async () => {
    await update(first, { enabled: false });
    await update(second, { locked: false });
    const deleted = await t.inject({ method: 'DELETE', url: `${base}/${second}`, session: owner.session });
    expect(deleted.statusCode).toBe(204);
    expect(await runWorldMirror(t.ctx)).toMatchObject({ written: 0, removed: 2, worlds: 0 });
    expect(commits()).toBe(1);
    expect(files()).toEqual(['.nojekyll']);
    expect(history()).not.toContain(`worlds/${second}`);
    expect(history()).not.toContain('changed');
    expect((await trusted(first)).statusCode).toBe(404);
  });

  it('shows its remote, address and last run to platform admins only', async () => {
    const res = await status();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      configured: true,
      remote: bare,
      branch: 'main',
      url: `${ORIGIN}/mirror`,
      servedLocally: true,
      lastCommit: sh('rev-parse', 'refs/heads/main'),
      worlds: 0,
      lastError: null,
      consecutiveFailures: 0,
    });
    const member = await signIn(t);
    const refused = await status(member.session);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only platform admins can do this.');
  });

  it('records a refused push for /admin, retries it, and the next success clears the error', async () => {
    // The remote refuses every push (as a repository the token may not write to would).
    const hook = join(bare, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\necho "push refused by test" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const started = Date.now();
    const world = await createWorld();
    await update(world, { enabled: true });
    const before = sh('rev-parse', 'refs/heads/main');

    // The real job on pg-boss, retried after a second instead of 30 s.
    const registry = [{ ...worldsMirrorHandler, retry: { limit: 5, delaySeconds: 1, backoff: false } }];
    const queue = createJobQueue(t.ctx.database, t.ctx.log, registry as JobDefinition[]);
    await queue.start();
    const ctx = { ...t.ctx, jobs: queue };
    const stopWorker = await startJobWorker(ctx, registry as JobDefinition[]);
    try {
      await queue.send(worldsMirrorHandler, {}, { singletonKey: worldsMirrorHandler.name });
      await expect
        .poll(async () => (await status()).json().consecutiveFailures, { timeout: 60_000 })
        .toBeGreaterThanOrEqual(2);
      const failing = (await status()).json();
      expect(failing.lastError).toMatch(/^git push failed: .*push refused by test/s);
      expect(Date.parse(failing.lastErrorAt)).toBeGreaterThanOrEqual(started);
      expect(sh('rev-parse', 'refs/heads/main')).toBe(before);

      rmSync(hook);
      await expect.poll(async () => (await status()).json().lastError, { timeout: 60_000 }).toBeNull();
      const cleared = (await status()).json();
      expect(cleared).toMatchObject({ consecutiveFailures: 0, worlds: 1 });
      expect(commits()).toBe(1);
      expect(sh('rev-parse', 'refs/heads/main')).not.toBe(before);
      expect(mirrored(world)).toBe(await download(world));
    } finally {
      rmSync(hook, { force: true });
      await stopWorker();
      await queue.stop();
    }
    // Two waits of up to 60 s each (the failures, then the clearing retry; a few seconds on a quiet machine, 26 s
    // with the CPU loaded): the limit covers both.
  }, 150_000);

  it('does nothing without a remote, and serves nothing outside demo mode', async () => {
    const config = { ...t.ctx.config, worldMirror: { ...t.ctx.config.worldMirror, remote: null } };
    expect(await runWorldMirror({ ...t.ctx, config })).toBeNull();
    const [file] = files().filter((f) => f.startsWith('worlds/'));
    const world = String(file).slice('worlds/'.length);
    expect(await readMirroredWorld(t.ctx.config.worldMirror, world)).toBe(mirrored(world));
    const notServed = { ...t.ctx.config.worldMirror, servedLocally: false };
    expect(await readMirroredWorld(notServed, world)).toBeNull();
  });
});
