/** The plan's group rules (pure): group membership and Auto Remove, then each member's group roles. */
import { holds, provenLink, type WorkingState } from './sync-plan-state.js';
import type {
  DiscordGroupRule,
  PlanGroup,
  PlanMember,
  SyncPlanInput,
  SyncReason,
  SyncWarning,
  TemporaryGrant,
} from './sync-plan-types.js';
import { groupRoleKey } from './sync-plan-types.js';

export function applyGroupRules(
  input: SyncPlanInput,
  group: PlanGroup,
  state: WorkingState,
  reasons: Map<string, SyncReason>,
  warn: (w: SyncWarning) => void,
) {
  if (!group.enabled) return endTemporaryGroupRoles(input, group, state, reasons);
  const entitled = new Set<string>();
  // Only a proven link lets a member's Discord roles act on a VRChat account: an unproven one may name a
  // stranger's account, so it counts here as no link at all (see provenLink).
  const linked = input.members.filter(provenLink);
  const kept = input.keep?.members ?? new Set<string>();
  for (const member of linked) {
    const vrcId = member.link!.vrcUserId;
    const rulesHeld = group.discordToGroup.filter((r) =>
      holds(input, state, member.discordUserId, r.discordRoleId),
    );
    const wantIn = rulesHeld.some((r) => r.action === 'Membership');
    const wantOut = rulesHeld.some((r) => r.action === 'NoMembership');
    if (wantIn && !wantOut) entitled.add(vrcId);
    const isMember = state.groupRoles.has(vrcId);
    const isProtected = group.protectedUserIds.has(vrcId);

    if (wantOut && isMember && !isProtected) {
      // Held by the breaker: left as it is (no role changes either), until a manager decides.
      if (kept.has(vrcId)) continue;
      if (group.can.remove) {
        state.groupRoles.delete(vrcId);
        reasons.set(`remove:${vrcId}`, 'NoMembership');
      } else warn({ kind: 'groupPermission', subject: 'group-members-remove', reason: 'NoMembership' });
      continue;
    }
    if (wantIn && !wantOut && !isMember) {
      if (!group.can.invite) {
        warn({ kind: 'groupPermission', subject: 'group-invites-manage', reason: 'Membership' });
      } else if (group.refusedJoinRequests?.has(vrcId) && state.requested.has(vrcId)) {
        // VRChat refused it lately; asking again on every run would only be refused again.
        warn({ kind: 'joinRefused', subject: vrcId, reason: 'Membership' });
      } else if (state.requested.has(vrcId)) {
        state.requested.delete(vrcId);
        state.groupRoles.set(vrcId, new Set());
        reasons.set(`accept:${vrcId}`, 'Membership');
      } else if (!state.invited.has(vrcId) && !group.alreadyInvited.has(vrcId)) {
        state.invited.add(vrcId);
        reasons.set(`invite:${vrcId}`, 'Membership');
      }
    }
    const roles = state.groupRoles.get(vrcId);
    if (!roles || isProtected) continue;
    applyGroupRoleRules(group, rulesHeld, member, roles, input, reasons, warn);
  }
  // Group members linked to nobody here: the temporary roles the bot gave them end.
  const linkedIds = new Set(linked.map((m) => m.link!.vrcUserId));
  for (const g of input.temporaryGrants ?? []) {
    if (g.kind !== 'groupRole' || linkedIds.has(g.vrcUserId) || group.protectedUserIds.has(g.vrcUserId))
      continue;
    const roles = state.groupRoles.get(g.vrcUserId);
    if (!roles?.has(g.roleId) || !group.can.assignRoles || !group.manageableRoleIds.has(g.roleId)) continue;
    if (input.keep?.groupRoles?.has(groupRoleKey(g.vrcUserId, g.roleId))) continue;
    roles.delete(g.roleId);
    reasons.set(`grole:${g.vrcUserId}:${g.roleId}`, 'GrantRoleTemporary');
  }
  if (group.autoRemove && group.can.remove) {
    for (const vrcId of [...state.groupRoles.keys()]) {
      if (entitled.has(vrcId) || group.protectedUserIds.has(vrcId) || kept.has(vrcId)) continue;
      // A linked member NoMembership keeps out is removed above, with that reason.
      state.groupRoles.delete(vrcId);
      reasons.set(`remove:${vrcId}`, reasons.get(`remove:${vrcId}`) ?? 'AutoRemove');
    }
  } else if (group.autoRemove) {
    warn({ kind: 'groupPermission', subject: 'group-members-remove', reason: 'AutoRemove' });
  }
}

function applyGroupRoleRules(
  group: PlanGroup,
  rulesHeld: readonly DiscordGroupRule[],
  member: PlanMember,
  roles: Set<string>,
  input: SyncPlanInput,
  reasons: Map<string, SyncReason>,
  warn: (w: SyncWarning) => void,
) {
  const vrcId = member.link!.vrcUserId;
  const recorded: readonly TemporaryGrant[] = input.temporaryGrants ?? [];
  // Held by the breaker: the member keeps the group role until a manager decides.
  const kept = (roleId: string) => input.keep?.groupRoles?.has(groupRoleKey(vrcId, roleId)) ?? false;
  const revoked = new Set<string>();
  const granted = new Map<string, SyncReason>();
  for (const r of rulesHeld) {
    if (!r.groupRoleId) continue;
    if (r.action === 'RevokeRole') revoked.add(r.groupRoleId);
    if (r.action === 'GrantRolePermanent' || r.action === 'GrantRoleTemporary') {
      if (!granted.has(r.groupRoleId) || r.action === 'GrantRolePermanent')
        granted.set(r.groupRoleId, r.action);
    }
  }
  const manageable = (roleId: string, reason: SyncReason) => {
    if (!group.can.assignRoles) {
      warn({ kind: 'groupPermission', subject: 'group-roles-assign', reason });
      return false;
    }
    if (!group.manageableRoleIds.has(roleId)) {
      warn({ kind: 'groupRole', subject: roleId, reason });
      return false;
    }
    return true;
  };
  for (const roleId of revoked) {
    if (roles.has(roleId) && !kept(roleId) && manageable(roleId, 'RevokeRole')) {
      roles.delete(roleId);
      reasons.set(`grole:${vrcId}:${roleId}`, 'RevokeRole');
    }
  }
  for (const [roleId, reason] of granted) {
    if (revoked.has(roleId) || roles.has(roleId)) continue;
    if (manageable(roleId, reason)) {
      roles.add(roleId);
      reasons.set(`grole:${vrcId}:${roleId}`, reason);
    }
  }
  // Temporary grants end when the Discord role is gone (unless another held mapping still grants the role),
  // and so do the ones the bot made through a mapping since changed or deleted.
  const temporary = [
    ...group.discordToGroup.flatMap((r) =>
      r.action === 'GrantRoleTemporary' && r.groupRoleId ? [r.groupRoleId] : [],
    ),
    ...recorded.flatMap((g) => (g.kind === 'groupRole' && g.vrcUserId === vrcId ? [g.roleId] : [])),
  ];
  for (const roleId of temporary) {
    if (granted.has(roleId) || !roles.has(roleId) || kept(roleId)) continue;
    if (!group.manageableRoleIds.has(roleId) || !group.can.assignRoles) continue;
    roles.delete(roleId);
    reasons.set(`grole:${vrcId}:${roleId}`, 'GrantRoleTemporary');
  }
}

/**
 * The Groups feature is off: no Discord-to-group mapping is in force, so no group role the bot gave through a
 * temporary mapping has a cause any more. Each recorded grant still held is taken (from anyone, linked or
 * not); nothing else in the group changes. Protected members, roles the bot may not manage and a missing
 * permission leave it as it is.
 */
function endTemporaryGroupRoles(
  input: SyncPlanInput,
  group: PlanGroup,
  state: WorkingState,
  reasons: Map<string, SyncReason>,
) {
  if (!group.can.assignRoles) return;
  for (const g of input.temporaryGrants ?? []) {
    if (g.kind !== 'groupRole' || group.protectedUserIds.has(g.vrcUserId)) continue;
    const roles = state.groupRoles.get(g.vrcUserId);
    if (!roles?.has(g.roleId) || !group.manageableRoleIds.has(g.roleId)) continue;
    // Held by the breaker: the member keeps the group role until a manager decides.
    if (input.keep?.groupRoles?.has(groupRoleKey(g.vrcUserId, g.roleId))) continue;
    roles.delete(g.roleId);
    reasons.set(`grole:${g.vrcUserId}:${g.roleId}`, 'GrantRoleTemporary');
  }
}
