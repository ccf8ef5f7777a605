import { syncAllJob } from '../../kernel/job-catalog.js';
import { requestGuildSync } from '../../kernel/sync-trigger.js';
import { handleJob } from '../define.js';

/** The scheduled full sync: every server the bot is in gets a sync job (collapsed with one waiting). */
export const syncAllHandler = handleJob(syncAllJob, async (ctx) => {
  for (const guildId of await ctx.discord.botGuildIds()) await requestGuildSync(ctx, guildId, 'schedule');
});
