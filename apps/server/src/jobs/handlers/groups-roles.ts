import { groupsRolesJob } from '../../kernel/job-catalog.js';
import { refreshOldGroupRoles } from '../../wings/group-sync/groups/group-role-cache.js';
import { handleJob } from '../define.js';

/** Reads again the linked groups' roles whose kept copy is missing, marked out of date or old. */
export const groupsRolesHandler = handleJob(groupsRolesJob, async (ctx, _payload, signal) => {
  const read = await refreshOldGroupRoles(ctx, signal);
  if (read > 0) ctx.log.info({ read }, 'groups.roles: group roles read again');
});
