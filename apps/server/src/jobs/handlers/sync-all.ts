import { syncAllJob } from '../../kernel/job-catalog.js';
import { requestGuildSync } from '../../kernel/sync-trigger.js';
import { handleJob } from '../define.js';

/**
 * The scheduled full sync: every server the bot is in gets a sync job (collapsed with one waiting). Stops
 * when its time is up; the next run asks again from the start (asking twice collapses).
 */
export const syncAllHandler = handleJob(syncAllJob, async (ctx, _payload, signal) => {
  for (const guildId of await ctx.discord.botGuildIds()) {
    if (signal.aborted) return;
    await requestGuildSync(ctx, guildId, 'schedule');
  }
});
