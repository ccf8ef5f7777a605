/**
 * The group-sync wing's face: what other wings use of it. Another wing imports group-sync only from here.
 */

export { groupsPerAccount } from './groups/group-accounts.js';
export {
  cachedGroupRoles,
  type GroupRoles,
  groupRolesOf,
  refreshGroupRoles,
} from './groups/group-role-cache.js';
export { groupNamesOf, linkOf } from './groups/groups.service.js';
export { activeMappingsOf } from './role-mappings/active-mappings.js';
export { type GroupNeeds, neededPermissions, permissionLabels } from './role-mappings/group-needs.js';
export { groupRoleActions, groupRoleRankProblem } from './role-mappings/mapping-roles.js';
export { followProblemOf } from './sync/group-audit-follow.js';
export { runGuildSync } from './sync/sync.service.js';
export {
  type PlanGroup,
  type PlanMember,
  planSync,
  type SyncAction,
  type SyncPlanInput,
} from './sync/sync-plan.js';
