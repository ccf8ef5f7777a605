/** What the server asks of the group: from the role mappings and the group settings. */
export interface GroupNeeds {
  /** Enable Groups feature: the Discord-to-group mappings act. */
  enabled: boolean;
  autoKick: boolean;
  /** Discord-to-group actions in use (None left out). */
  actions: ReadonlySet<string>;
  /** Group roles the Discord-to-group mappings grant or revoke. */
  mappedGroupRoleIds: ReadonlySet<string>;
}

export const permissionLabels = {
  'group-roles-assign': 'Assign Group Roles',
  'group-invites-manage': 'Manage Group Invites',
  'group-members-remove': 'Remove Group Members',
} as const;
export type GroupPermission = keyof typeof permissionLabels;

/** Which permissions the settings need, and for what (in the words of the VRChat tab). */
export function neededPermissions(needs: GroupNeeds): Map<GroupPermission, string> {
  const needed = new Map<GroupPermission, string>();
  if (!needs.enabled) return needed;
  const { actions } = needs;
  if (actions.has('GrantRolePermanent') || actions.has('GrantRoleTemporary') || actions.has('RevokeRole'))
    needed.set('group-roles-assign', 'the role mappings that grant or revoke group roles');
  if (actions.has('Membership')) needed.set('group-invites-manage', 'the Membership mappings (invites)');
  if (needs.autoKick || actions.has('NoMembership'))
    needed.set('group-members-remove', 'Auto Remove Members without membership');
  return needed;
}
