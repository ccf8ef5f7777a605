import { vrchatAccountsOf } from '../../kernel/config.js';
import { syncGuildJob } from '../../kernel/job-catalog.js';
import { runGuildSync } from '../../wings/group-sync/sync/sync.service.js';
import { handleJob, type JobDefinition } from '../define.js';

/**
 * One server's sync (observe, plan, apply). Retried with backoff when VRChat or Discord rate-limit or fail;
 * each retry observes again, so what a crashed or failed run already did is not done twice.
 */
export const syncGuildHandler: JobDefinition<typeof syncGuildJob.payload> = {
  ...handleJob(syncGuildJob, async (ctx, { guildId, reason, approvedRemovals }) => {
    const result = await runGuildSync(ctx, guildId, { approvedRemovals });
    ctx.log.info({ guildId, reason, ...result }, 'sync.guild: done');
  }),
  // One sync loop per VRChat bot account, and one more: each group is served by one account with its own
  // budget, so servers on different accounts sync side by side (never two syncs of one server: the fetch skips
  // a server whose sync runs, boss-sql.ts). Big servers' syncs (LONG_SYNC_MS) take at most one loop per account
  // over every process, so the extra loop is always free for a small community's sync.
  runsAtOnce: (ctx) => vrchatAccountsOf(ctx.config.vrchat).length + 1,
  longAtOnce: (ctx) => vrchatAccountsOf(ctx.config.vrchat).length,
};
