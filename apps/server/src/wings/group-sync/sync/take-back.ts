import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { syncGuildJob } from '../../../kernel/job-catalog.js';
import { currentGuildIdsOf } from '../../access/index.js';
import { removeGuestsOfUser } from '../../community/index.js';
import { runGuildSync } from './sync.service.js';

/**
 * Takes back what the bot gave because of a user whose link is gone (account erasure): their guest roles,
 * then a sync of every server they are in, now, so the linked, 18+ and mapped roles and group places follow
 * the missing link. Guest records made after `madeBy` (the deletion request) belong to the person's new
 * account and stay. Repeats safely.
 */
export async function takeBackGrantsOf(
  ctx: AppContext,
  userId: string,
  actor: Actor,
  madeBy: string,
  signal?: AbortSignal,
): Promise<void> {
  await removeGuestsOfUser(ctx, userId, actor, madeBy);
  const waitEnds = Date.now() + SYNC_WAIT_MS;
  for (const guildId of await currentGuildIdsOf(ctx.db, [userId])) {
    // Never beside the server's own sync job: one that observed the member still linked could act on them,
    // and log it, after the erasure (naming them). One starting after ours finds nothing of theirs to do.
    await untilGuildSyncFinishes(ctx, guildId, waitEnds, signal);
    await runGuildSync(ctx, guildId);
    await untilGuildSyncFinishes(ctx, guildId, waitEnds, signal);
  }
}

/**
 * How long the take-back waits in all for servers' running syncs (a big server's takes long: then it goes
 * on, and the hourly purge erases again what such a sync logs later).
 */
export const SYNC_WAIT_MS = 2 * 60_000;

const untilGuildSyncFinishes = (ctx: AppContext, guildId: string, waitEnds: number, signal?: AbortSignal) =>
  ctx.jobs.untilRunningFinish?.(
    { job: syncGuildJob, singletonKey: guildId },
    { timeoutMs: Math.max(0, waitEnds - Date.now()), signal },
  );
