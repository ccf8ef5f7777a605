import { z } from 'zod';
import { deliverDiscordLogs } from '../../modules/discord-logging/delivery.js';
import { defineJob } from '../define.js';

/**
 * Posts the server log embeds waiting in the outbox (written with their audit entries). Queued a second after
 * each write (see watchDiscordLogOutbox); the timer catches what the bot and jobs wrote, and retries.
 */
export const discordLogDeliverJob = defineJob({
  name: 'discordLog.deliver',
  payload: z.object({}),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 10 * 60,
  schedule: { timerSeconds: 30, method: 'deliverDiscordLogs' },
  async run(ctx) {
    const result = await deliverDiscordLogs(ctx);
    if (result.posted + result.dropped + result.deferred > 0)
      ctx.log.info(result, 'discordLog.deliver: done');
  },
});
