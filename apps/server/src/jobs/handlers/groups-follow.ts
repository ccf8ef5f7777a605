import { groupsFollowJob } from '../../kernel/job-catalog.js';
import { followGroupAuditLogs } from '../../wings/group-sync/sync/group-audit-follow.js';
import { handleJob } from '../define.js';

/** Follows joins, leaves, removals, join requests and hand-made role changes in linked groups (audit log). */
export const groupsFollowHandler = handleJob(groupsFollowJob, async (ctx, _payload, signal) => {
  const asked = await followGroupAuditLogs(ctx, signal);
  if (asked > 0) ctx.log.info({ asked }, 'groups.follow: group changes asked for syncs');
});
