import { linkedRolesUpdateJob } from '../../kernel/job-catalog.js';
import { updateRoleConnection } from '../../wings/identity/linked-roles/linked-roles.service.js';
import { handleJob } from '../define.js';

/**
 * One user's Discord role connection after their link changed (link, verify, refresh, unlink, move).
 * Retried with backoff when Discord is unreachable or rate-limits; each run writes the link as it is then.
 */
export const linkedRolesUpdateHandler = handleJob(linkedRolesUpdateJob, async (ctx, { userId }) => {
  const outcome = await updateRoleConnection(ctx, userId);
  ctx.log.debug({ userId, outcome }, `${linkedRolesUpdateJob.name}: done`);
});
