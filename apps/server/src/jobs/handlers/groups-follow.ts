import { z } from 'zod';
import { followGroupAuditLogs } from '../../modules/sync/group-audit-follow.js';
import { defineJob } from '../define.js';

/** Follows joins, leaves, removals, join requests and hand-made role changes in linked groups (audit log). */
export const groupsFollowJob = defineJob({
  name: 'groups.follow',
  payload: z.object({}),
  // The next poll is a minute away.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 5 * 60,
  schedule: { timerSeconds: 60, method: 'followGroupAuditLogs' },
  async run(ctx) {
    const asked = await followGroupAuditLogs(ctx);
    if (asked > 0) ctx.log.info({ asked }, 'groups.follow: group changes asked for syncs');
  },
});
