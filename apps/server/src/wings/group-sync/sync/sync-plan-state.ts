/** The sync plan's working state: observed from the input, changed by the rules, then compared (pure). */
import type { SyncAction, SyncPlanInput, SyncReason } from './sync-plan-types.js';

/** The state the plan works on: observed, then changed by each rule until nothing changes. */
export interface WorkingState {
  discordRoles: Map<string, Set<string>>;
  groupRoles: Map<string, Set<string>>;
  invited: Set<string>;
  requested: Set<string>;
}

export function observedState(input: SyncPlanInput): WorkingState {
  const group = input.group;
  const groupRoles = new Map<string, Set<string>>();
  const invited = new Set<string>();
  const requested = new Set<string>();
  if (group) {
    // One member's part reads only their own entries; the unlinked part reads every member it was given.
    const ids =
      input.members.length > 0
        ? input.members.flatMap((m) => (m.link ? [m.link.vrcUserId] : []))
        : [...group.members.keys()];
    for (const id of ids) {
      const roles = group.members.get(id);
      if (roles) groupRoles.set(id, new Set(roles));
      if (group.pendingInvites.has(id)) invited.add(id);
      if (group.joinRequests.has(id)) requested.add(id);
    }
  }
  return {
    discordRoles: new Map(input.members.map((m) => [m.discordUserId, new Set(m.roleIds)])),
    groupRoles,
    invited,
    requested,
  };
}

export function cloneState(s: WorkingState): WorkingState {
  return {
    discordRoles: new Map([...s.discordRoles].map(([k, v]) => [k, new Set(v)])),
    groupRoles: new Map([...s.groupRoles].map(([k, v]) => [k, new Set(v)])),
    invited: new Set(s.invited),
    requested: new Set(s.requested),
  };
}

/** Whether the member's current Discord roles include the rule's role (the guild id = @everyone). */
export function holds(
  input: SyncPlanInput,
  state: WorkingState,
  discordUserId: string,
  roleId: string | null,
) {
  if (!roleId) return false;
  if (roleId === input.guildId) return true;
  return state.discordRoles.get(discordUserId)?.has(roleId) ?? false;
}

export function diffStates(
  input: SyncPlanInput,
  observed: WorkingState,
  final: WorkingState,
  reasons: Map<string, SyncReason>,
): SyncAction[] {
  const actions: SyncAction[] = [];
  const discordOf = new Map(
    input.members.filter((m) => m.link).map((m) => [m.link!.vrcUserId, m.discordUserId] as const),
  );
  const who = (vrcUserId: string) => discordOf.get(vrcUserId) ?? null;
  const reason = (key: string): SyncReason => reasons.get(key) ?? 'Membership';
  // Each action names the member on both platforms (where linked) and the reason the planner recorded.
  const memberAction = (kind: 'invite' | 'acceptRequest' | 'remove', vrcUserId: string, reasonKey: string) =>
    actions.push({ kind, vrcUserId, discordUserId: who(vrcUserId), reason: reason(reasonKey) });
  const groupRoleAction = (kind: 'addGroupRole' | 'removeGroupRole', vrcUserId: string, roleId: string) =>
    actions.push({
      kind,
      vrcUserId,
      discordUserId: who(vrcUserId),
      roleId,
      reason: reason(`grole:${vrcUserId}:${roleId}`),
    });
  const discordRoleAction = (
    kind: 'addDiscordRole' | 'removeDiscordRole',
    discordUserId: string,
    roleId: string,
  ) => actions.push({ kind, discordUserId, roleId, reason: reason(`drole:${discordUserId}:${roleId}`) });

  for (const vrcUserId of final.invited) {
    if (!observed.invited.has(vrcUserId)) memberAction('invite', vrcUserId, `invite:${vrcUserId}`);
  }
  for (const [vrcUserId, roles] of final.groupRoles) {
    const before = observed.groupRoles.get(vrcUserId);
    if (!before) {
      memberAction('acceptRequest', vrcUserId, `accept:${vrcUserId}`);
    }
    for (const roleId of roles) {
      if (!before?.has(roleId)) groupRoleAction('addGroupRole', vrcUserId, roleId);
    }
    for (const roleId of before ?? []) {
      if (!roles.has(roleId)) groupRoleAction('removeGroupRole', vrcUserId, roleId);
    }
  }
  for (const vrcUserId of observed.groupRoles.keys()) {
    if (!final.groupRoles.has(vrcUserId)) memberAction('remove', vrcUserId, `remove:${vrcUserId}`);
  }
  for (const [discordUserId, roles] of final.discordRoles) {
    const before = observed.discordRoles.get(discordUserId) ?? new Set<string>();
    for (const roleId of roles)
      if (!before.has(roleId)) discordRoleAction('addDiscordRole', discordUserId, roleId);
    for (const roleId of before)
      if (!roles.has(roleId)) discordRoleAction('removeDiscordRole', discordUserId, roleId);
  }
  return actions;
}
