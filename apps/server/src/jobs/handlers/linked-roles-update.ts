import { z } from 'zod';
import { LINKED_ROLES_JOB, updateRoleConnection } from '../../modules/linked-roles/linked-roles.service.js';
import { defineJob } from '../define.js';

/**
 * One user's Discord role connection after their link changed (link, verify, refresh, unlink, move).
 * Retried with backoff when Discord is unreachable or rate-limits; each run writes the link as it is then.
 */
export const linkedRolesUpdateJob = defineJob({
  name: LINKED_ROLES_JOB,
  payload: z.object({ userId: z.string() }),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 5 * 60,
  async run(ctx, { userId }) {
    const outcome = await updateRoleConnection(ctx, userId);
    ctx.log.debug({ userId, outcome }, `${LINKED_ROLES_JOB}: done`);
  },
});
