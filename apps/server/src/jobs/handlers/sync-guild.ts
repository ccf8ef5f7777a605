import { z } from 'zod';
import { runGuildSync } from '../../modules/sync/sync.service.js';
import { defineJob } from '../define.js';

/**
 * One server's sync (observe, plan, apply). Retried with backoff when VRChat or Discord rate-limit or fail;
 * each retry observes again, so what a crashed or failed run already did is not done twice.
 */
export const syncGuildJob = defineJob({
  name: 'sync.guild',
  payload: z.object({
    guildId: z.string(),
    reason: z.string(),
    approvedRemovals: z.array(z.string()).optional(),
  }),
  retry: { limit: 6, delaySeconds: 20, backoff: true },
  expireInSeconds: 60 * 60,
  async run(ctx, { guildId, reason, approvedRemovals }) {
    const result = await runGuildSync(ctx, guildId, { approvedRemovals });
    ctx.log.info({ guildId, reason, ...result }, 'sync.guild: done');
  },
});
