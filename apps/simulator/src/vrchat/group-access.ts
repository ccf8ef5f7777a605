import { groupNotFound, noPermission, notAMember, vrcError } from './errors.js';
import { memberPermissions } from './serialize-groups.js';
import type { VrcGroup, VrchatState, VrcMembership, VrcRole } from './state.js';

export function loadGroup(state: VrchatState, groupId: string): VrcGroup {
  const group = state.groups.get(groupId);
  if (!group) throw groupNotFound();
  return group;
}

export function hasPermission(
  state: VrchatState,
  group: VrcGroup,
  userId: string,
  permission: string,
): boolean {
  const perms = memberPermissions(state, group, userId);
  return perms.includes('*') || perms.includes(permission);
}

/** The caller must be a member holding `permission` (the owner holds all). */
export function requirePermission(
  state: VrchatState,
  group: VrcGroup,
  userId: string,
  permission: string,
): void {
  if (!state.member(group.id, userId)) throw notAMember();
  if (!hasPermission(state, group, userId, permission)) throw noPermission();
}

/**
 * A member's rank: the order of their highest role (lower order = higher rank). The owner outranks
 * every role; a member without roles ranks below all of them.
 */
export function rankOf(state: VrchatState, group: VrcGroup, userId: string): number {
  if (group.ownerId === userId) return Number.NEGATIVE_INFINITY;
  const m = state.member(group.id, userId);
  const orders = (m?.roleIds ?? []).map((id) => state.roles.get(id)?.order ?? Number.POSITIVE_INFINITY);
  return Math.min(Number.POSITIVE_INFINITY, ...orders);
}

/** Roles can only be handed out or taken away below one's own rank. */
export function requireRoleBelowCaller(
  state: VrchatState,
  group: VrcGroup,
  callerId: string,
  role: VrcRole,
): void {
  if (role.order <= rankOf(state, group, callerId))
    throw vrcError(
      403,
      `You can't manage the role "${role.name}" because it is the same or higher rank than your own.`,
    );
}

/** Other members can only be managed when they rank below the caller. */
export function requireTargetBelowCaller(
  state: VrchatState,
  group: VrcGroup,
  callerId: string,
  targetId: string,
): void {
  if (callerId === targetId) return;
  if (rankOf(state, group, targetId) <= rankOf(state, group, callerId))
    throw vrcError(403, "You can't manage a member who is the same or higher rank than you.");
}

export function requireMember(state: VrchatState, groupId: string, userId: string): VrcMembership {
  const m = state.member(groupId, userId);
  if (!m) throw notAMember();
  return m;
}
