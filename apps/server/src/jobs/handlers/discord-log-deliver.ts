import { discordLogDeliverJob } from '../../kernel/job-catalog.js';
import { deliverDiscordLogs } from '../../wings/admin/discord-logging/delivery.js';
import { handleJob } from '../define.js';

/**
 * Posts the server log embeds waiting in the outbox (written with their audit entries). Queued a second after
 * each write (see watchDiscordLogOutbox); the timer catches what the bot and jobs wrote, and retries.
 */
export const discordLogDeliverHandler = handleJob(discordLogDeliverJob, async (ctx) => {
  const result = await deliverDiscordLogs(ctx);
  if (result.posted + result.dropped + result.deferred > 0) ctx.log.info(result, 'discordLog.deliver: done');
});
