import type { AppContext } from '../../../kernel/context.js';
import { requirePlatformAdmin } from '../../identity/index.js';
import { readMirrorStatus } from './mirror-status.js';
import { mirrorBaseUrl } from './mirror-url.js';
import { mirrorRemoteLabel } from './world-mirror.service.js';

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** The mirror's configuration and its last run, for platform admins (/admin). */
export async function worldMirrorStatusFor(ctx: AppContext, userId: string, origin: string) {
  requirePlatformAdmin(ctx, userId);
  const config = ctx.config.worldMirror;
  const remote = mirrorRemoteLabel(config);
  const row = remote ? await readMirrorStatus(ctx.db, remote) : null;
  return {
    configured: remote !== null,
    remote,
    branch: config.branch,
    url: mirrorBaseUrl(ctx.config, origin),
    servedLocally: config.servedLocally,
    lastRunAt: iso(row?.lastRunAt),
    lastSuccessAt: iso(row?.lastSuccessAt),
    lastCommit: row?.lastCommit ?? null,
    lastCommitAt: iso(row?.lastCommitAt),
    worlds: row?.worlds ?? 0,
    worldsNotBuilt: row?.worldsNotBuilt ?? 0,
    lastError: row?.lastError ?? null,
    lastErrorAt: iso(row?.lastErrorAt),
    consecutiveFailures: row?.consecutiveFailures ?? 0,
  };
}
