import { z } from 'zod';
import { requestGuildSync } from '../../modules/sync/sync-trigger.js';
import { defineJob } from '../define.js';

/** The scheduled full sync: every server the bot is in gets a sync job (collapsed with one waiting). */
export const syncAllJob = defineJob({
  name: 'sync.all',
  payload: z.object({}),
  retry: { limit: 1, delaySeconds: 60, backoff: false },
  expireInSeconds: 10 * 60,
  schedule: { timerSeconds: 15 * 60, method: 'syncAllGuilds' },
  async run(ctx) {
    for (const guildId of await ctx.discord.botGuildIds()) await requestGuildSync(ctx, guildId, 'schedule');
  },
});
