import { syncGuildJob } from '../../kernel/job-catalog.js';
import { runGuildSync } from '../../wings/group-sync/sync/sync.service.js';
import { handleJob } from '../define.js';

/**
 * One server's sync (observe, plan, apply). Retried with backoff when VRChat or Discord rate-limit or fail;
 * each retry observes again, so what a crashed or failed run already did is not done twice.
 */
export const syncGuildHandler = handleJob(
  syncGuildJob,
  async (ctx, { guildId, reason, approvedRemovals }) => {
    const result = await runGuildSync(ctx, guildId, { approvedRemovals });
    ctx.log.info({ guildId, reason, ...result }, 'sync.guild: done');
  },
);
