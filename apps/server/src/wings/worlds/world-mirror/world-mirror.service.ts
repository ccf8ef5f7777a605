import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { worlds } from '../../../db/schema/index.js';
import type { WorldMirrorConfig } from '../../../kernel/config.js';
import type { AppContext } from '../../../kernel/context.js';
import { createMutex } from '../../../platforms/vrchat/session-store.js';
import { worldDataBody } from '../worlds/world-data.service.js';
import { GitError, type GitRemote, git, redact } from './git.js';
import { type PublishResult, publishWorlds } from './mirror-repo.js';
import { forgetMirroredWorlds } from './mirror-serve.js';
import { recordMirrorFailure, recordMirrorSuccess } from './mirror-status.js';

/** Advisory-lock key of the mirror: one run at a time across every process sharing the database. */
const MIRROR_LOCK_KEY = 72707380;
const inProcess = createMutex();

/** The remote as /admin shows it and the status row is keyed by: credentials removed. */
export const mirrorRemoteLabel = (config: WorldMirrorConfig) =>
  config.remote ? redact(config.remote) : null;

const remoteOf = (config: WorldMirrorConfig & { remote: string }): GitRemote => ({
  url: config.remote,
  sshKeyFile: config.sshKeyFile,
  stateDir: config.dir,
});

/**
 * One mirror run (the `worlds.mirror` job): every world with Github Updates Enabled is written with the body
 * `/data/v2/{id}` serves, the others are removed, and one commit is pushed when anything changed. The result
 * is recorded for /admin; a failure is recorded, logged and thrown again so the job is retried.
 * Answers null when no mirror is configured.
 */
export async function runWorldMirror(ctx: AppContext): Promise<PublishResult | null> {
  const config = ctx.config.worldMirror;
  const { remote } = config;
  if (!remote) {
    ctx.log.debug('world mirror: no WORLD_MIRROR_REMOTE; nothing to do');
    return null;
  }
  const label = redact(remote);
  return exclusive(ctx, async () => {
    try {
      if (config.servedLocally) await ensureBareRepository(remote, config.branch);
      const { bodies, notBuilt } = await worldBodies(ctx);
      const result = await publishWorlds({
        remote: remoteOf({ ...config, remote }),
        branch: config.branch,
        workDir: join(config.dir, 'work'),
        bodies,
        keep: notBuilt,
      });
      if (result.commit) forgetMirroredWorlds();
      await recordMirrorSuccess(ctx.db, label, { ...result, worldsNotBuilt: notBuilt.size });
      // A push is worth an info line; a run with nothing to push every 10 minutes is not.
      const level = result.commit ? 'info' : 'debug';
      ctx.log[level]({ remote: label, ...result, notBuilt: notBuilt.size }, 'world mirror: run done');
      return result;
    } catch (err) {
      const message = err instanceof GitError ? err.message : redact(String((err as Error).message ?? err));
      await recordMirrorFailure(ctx.db, label, message).catch((dbErr) =>
        ctx.log.error({ err: dbErr }, 'world mirror: failure not recorded'),
      );
      ctx.log.error({ remote: label, error: message }, 'world mirror: run failed; it is retried');
      throw new Error(message);
    }
  });
}

/**
 * The body of every world with Github Updates Enabled. A world whose body cannot be built now (bot removed,
 * platform down and nothing cached) keeps what the mirror holds, as /data keeps serving its last body.
 */
async function worldBodies(ctx: AppContext) {
  const enabled = await ctx.db.select({ id: worlds.id }).from(worlds).where(eq(worlds.enabled, true));
  const bodies = new Map<string, string>();
  const notBuilt = new Set<string>();
  for (const { id } of enabled) {
    try {
      bodies.set(id, await worldDataBody(ctx, id));
    } catch (err) {
      notBuilt.add(id);
      ctx.log.warn(
        { err, worldId: id },
        'world mirror: world data not built; the mirror keeps its last body',
      );
    }
  }
  return { bodies, notBuilt };
}

/** Demo mode's remote: a bare repository under DATA_DIR, created on first use. */
async function ensureBareRepository(path: string, branch: string): Promise<void> {
  if (existsSync(join(path, 'HEAD'))) return;
  await mkdir(path, { recursive: true });
  await git(dirname(path), ['init', '--quiet', '--bare', `--initial-branch=${branch}`, path], {
    PATH: process.env.PATH,
    GIT_CONFIG_NOSYSTEM: '1',
  });
}

/**
 * Runs `fn` while no other mirror run does: in this process, and on PostgreSQL in any process (a session
 * advisory lock on a connection of its own, so no transaction stays open during the push and a process
 * that dies frees it). Embedded PGlite has one process: the in-process lock is enough.
 */
function exclusive<T>(ctx: AppContext, fn: () => Promise<T>): Promise<T> {
  const url = ctx.database.url;
  if (!url) return inProcess(fn);
  return inProcess(async () => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIRROR_LOCK_KEY]);
      return await fn();
    } finally {
      await client.end().catch(() => {});
    }
  });
}
