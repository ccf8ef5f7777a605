import { syncAllJob } from '../../kernel/job-catalog.js';
import { requestGuildSync } from '../../kernel/sync-trigger.js';
import { serversDueForFullPass } from '../../wings/group-sync/sync/full-pass.js';
import { handleJob } from '../define.js';

/**
 * The scheduled pass: every server due (never synced, a write failed, changes it cannot be told of, or nothing
 * synced it for FULL_PASS_INTERVAL_MS) gets a sync job (collapsed with one waiting); the others are skipped, no
 * group read, since their changes ask for their own syncs. Stops when its time is up; the next run asks again
 * (asking twice collapses).
 */
export const syncAllHandler = handleJob(syncAllJob, async (ctx, _payload, signal) => {
  for (const guildId of await serversDueForFullPass(ctx, await ctx.discord.botGuildIds())) {
    if (signal.aborted) return;
    await requestGuildSync(ctx, guildId, 'schedule');
  }
});
