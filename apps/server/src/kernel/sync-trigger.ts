import type { AppContext } from './context.js';
import { syncGuildJob } from './job-catalog.js';

/** Why a server's sync was asked for (kept in the job's payload and in the logs). */
export type SyncReason =
  | 'link'
  | 'member'
  | 'departure'
  | 'access'
  | 'roles'
  | 'mappings'
  | 'settings'
  | 'group'
  | 'manual'
  | 'schedule'
  | 'held';

/**
 * Asks for a sync of one server soon. Requests within a few seconds collapse into one job, so a burst of
 * role changes costs one sync. Never throws: a server without a job queue (export, some tests) syncs at the
 * next scheduled run instead.
 */
export async function requestGuildSync(ctx: AppContext, guildId: string, reason: SyncReason): Promise<void> {
  try {
    await ctx.jobs.send(syncGuildJob, { guildId, reason }, { singletonKey: guildId, startAfterSeconds: 2 });
  } catch (err) {
    ctx.log.warn({ err, guildId, reason }, 'sync request not queued; the scheduled sync will catch up');
  }
}
