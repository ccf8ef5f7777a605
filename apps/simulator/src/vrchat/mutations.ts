import { requireRoomForAnotherGroup, vrcError } from './errors.js';
import { newId, stableId } from './ids.js';
import type {
  AgeVerificationStatus,
  JoinState,
  VrchatState,
  VrcMembership,
  VrcRole,
  VrcUser,
} from './state.js';

/**
 * Changes made "outside the API" — by the user on their profile page, by a group owner, or by a test
 * through the control API. Group changes are attributed to the owner and land in the audit log.
 */

export const BIO_MAX = 512;

export interface UserPatch {
  displayName?: string;
  bio?: string;
  bioLinks?: string[];
  pronouns?: string;
  ageVerificationStatus?: AgeVerificationStatus;
  ageVerified?: boolean;
  status?: VrcUser['status'];
  state?: VrcUser['state'];
  statusDescription?: string;
}

export function patchUser(state: VrchatState, userId: string, patch: UserPatch): VrcUser {
  const user = state.users.get(userId);
  if (!user) throw vrcError(404, 'User not found');
  if (patch.bio !== undefined && patch.bio.length > BIO_MAX)
    throw vrcError(400, `bio must be at most ${BIO_MAX} characters`);
  if (patch.displayName !== undefined && patch.displayName !== user.displayName) {
    user.pastDisplayNames.push({ displayName: user.displayName, updated_at: new Date().toISOString() });
  }
  for (const [key, value] of Object.entries(patch))
    if (value !== undefined) Object.assign(user, { [key]: value });
  user.lastActivity = new Date().toISOString();
  return user;
}

export interface NewUser extends UserPatch {
  displayName: string;
  /** Give the user a login: username + password (+ optional TOTP secret). */
  username?: string;
  password?: string;
  totpSecret?: string;
}

let created = 0;

/**
 * A user as a new VRChat account looks: no bio, age hidden, offline, basic trust, joined and last seen
 * at `at`, with a default avatar named by `avatarKey`.
 */
export function freshUser(
  id: string,
  displayName: string,
  at: string,
  avatarKey: string,
  differences: Pick<VrcUser, 'status'> & Partial<VrcUser>,
): VrcUser {
  return {
    id,
    displayName,
    bio: '',
    bioLinks: [],
    pronouns: '',
    ageVerificationStatus: 'hidden',
    ageVerified: false,
    developerType: 'none',
    state: 'offline',
    statusDescription: '',
    tags: ['system_trust_basic'],
    dateJoined: at.slice(0, 10),
    lastLogin: at,
    lastActivity: at,
    lastPlatform: 'standalonewindows',
    avatarId: stableId('avtr', avatarKey),
    hasProfilePic: false,
    allowAvatarCopying: false,
    pastDisplayNames: [],
    ...differences,
  };
}

export function createUser(state: VrchatState, input: NewUser): VrcUser {
  created += 1;
  const id = stableId('usr', `created:${input.displayName}:${Date.now()}:${created}`);
  const now = new Date().toISOString();
  const user = freshUser(id, input.displayName, now, `created:${id}`, {
    status: 'active',
    tags: ['system_trust_basic', 'language_eng'],
  });
  state.users.set(id, user);
  const { username, password, totpSecret, displayName: _d, ...rest } = input;
  patchUser(state, id, rest);
  if (username && password) {
    state.accounts.set(id, {
      userId: id,
      username,
      email: `${username}@vrclink.local`,
      password,
      totpSecret,
      recoveryCodes: [],
      twoFactorEnabledAt: totpSecret ? now : undefined,
    });
  }
  return user;
}

export interface GroupPatch {
  name?: string;
  description?: string;
  joinState?: JoinState;
}

export function patchGroup(state: VrchatState, groupId: string, patch: GroupPatch) {
  const group = state.groups.get(groupId);
  if (!group) throw vrcError(404, "Can't find group!");
  const data: Record<string, { old: unknown; new: unknown }> = {};
  for (const key of ['name', 'description', 'joinState'] as const) {
    const value = patch[key];
    if (value !== undefined && value !== group[key]) {
      data[key] = { old: group[key], new: value };
      Object.assign(group, { [key]: value });
    }
  }
  if (Object.keys(data).length) {
    group.updatedAt = new Date().toISOString();
    state.addAudit({
      groupId,
      actorId: group.ownerId,
      targetId: groupId,
      eventType: 'group.update',
      description: `${state.displayName(group.ownerId)} updated the group (${Object.keys(data).join(', ')}).`,
      data,
    });
  }
  return group;
}

/** The owner adds a user as a member directly (e.g. after an in-game invite), with optional roles. */
export function ownerAddsMember(state: VrchatState, groupId: string, userId: string, roleIds: string[] = []) {
  const group = state.groups.get(groupId);
  if (!group) throw vrcError(404, "Can't find group!");
  if (!state.users.has(userId)) throw vrcError(404, 'User not found');
  for (const id of roleIds)
    if (state.roles.get(id)?.groupId !== groupId)
      throw vrcError(404, `Role ${id} is not a role of this group`);
  if (state.member(groupId, userId)) throw vrcError(400, "You're already a member!");
  requireRoomForAnotherGroup(state, userId);
  const m = state.putMembership(groupId, userId, 'member');
  m.roleIds = [...roleIds];
  m.acceptedById = group.ownerId;
  state.addAudit({
    groupId,
    actorId: group.ownerId,
    targetId: userId,
    eventType: 'group.member.join',
    description: `${state.displayName(userId)} joined the group (added by ${state.displayName(group.ownerId)}).`,
    data: { roleIds },
  });
  return m;
}

export function ownerRemovesMember(state: VrchatState, groupId: string, userId: string): void {
  const group = groupOfMember(state, groupId, userId);
  if (userId === group.ownerId) throw vrcError(403, "You can't kick the owner of the group.");
  state.deleteMembership(groupId, userId);
  state.addAudit({
    groupId,
    actorId: group.ownerId,
    targetId: userId,
    eventType: 'group.member.remove',
    description: `${state.displayName(group.ownerId)} removed ${state.displayName(userId)} from the group.`,
    data: {},
  });
}

/** The user asks to join (what the in-game "Request to join" button does). */
export function userRequestsToJoin(state: VrchatState, groupId: string, userId: string) {
  const group = state.groups.get(groupId);
  if (!group) throw vrcError(404, "Can't find group!");
  if (!state.users.has(userId)) throw vrcError(404, 'User not found');
  const existing = state.membership(groupId, userId);
  if (existing?.status === 'member') throw vrcError(400, "You're already a member!");
  if (existing?.status === 'requested')
    throw vrcError(400, 'You already have a pending request to join this group.');
  if (existing?.status === 'banned') throw vrcError(403, 'You are banned from this group.');
  const m = state.putMembership(groupId, userId, 'requested');
  state.addAudit({
    groupId,
    actorId: userId,
    targetId: userId,
    eventType: 'group.request.create',
    description: `${state.displayName(userId)} requested to join the group.`,
    data: {},
  });
  return m;
}

/** The user blocks the group: invites to them are then refused. */
export function userBlocksGroup(state: VrchatState, groupId: string, userId: string) {
  if (!state.groups.has(groupId)) throw vrcError(404, "Can't find group!");
  if (!state.users.has(userId)) throw vrcError(404, 'User not found');
  return state.putMembership(groupId, userId, 'userblocked');
}

/** The member leaves by themself (the in-game "Leave group" button; the API's POST /groups/{id}/leave). */
export function memberLeaves(state: VrchatState, groupId: string, userId: string): void {
  const group = groupOfMember(state, groupId, userId);
  if (userId === group.ownerId) throw vrcError(400, "You can't leave a group you own.");
  state.deleteMembership(groupId, userId);
  state.addAudit({
    groupId,
    actorId: userId,
    targetId: userId,
    eventType: 'group.member.leave',
    description: `${state.displayName(userId)} left the group.`,
    data: {},
  });
}

export interface NewRole {
  name: string;
  description?: string;
  /** Rank; default: below every existing role. */
  order?: number;
  permissions?: string[];
  isManagementRole?: boolean;
  requiresPurchase?: boolean;
}

/** The owner creates a role (e.g. one VRChat sells: requiresPurchase). Audited `group.role.create`. */
export function ownerCreatesRole(state: VrchatState, groupId: string, input: NewRole): VrcRole {
  const group = state.groups.get(groupId);
  if (!group) throw vrcError(404, "Can't find group!");
  const existing = state.groupRoles(groupId);
  const now = new Date().toISOString();
  const role: VrcRole = {
    id: newId('grol'),
    groupId,
    name: input.name,
    description: input.description ?? '',
    order: input.order ?? Math.max(0, ...existing.map((r) => r.order)) + 1,
    permissions: [...(input.permissions ?? [])],
    isSelfAssignable: false,
    isManagementRole: input.isManagementRole ?? false,
    requiresTwoFactor: false,
    requiresPurchase: input.requiresPurchase ?? false,
    createdAt: now,
    updatedAt: now,
  };
  state.roles.set(role.id, role);
  state.addAudit({
    groupId,
    actorId: group.ownerId,
    targetId: role.id,
    eventType: 'group.role.create',
    description: `${state.displayName(group.ownerId)} created the role "${role.name}".`,
    data: { name: role.name, order: role.order, requiresPurchase: role.requiresPurchase },
  });
  return role;
}

/** The owner changes a role's permissions in VRChat's own UI (audited as `group.role.update`). */
export function ownerUpdatesRolePermissions(
  state: VrchatState,
  groupId: string,
  roleId: string,
  permissions: string[],
): VrcRole {
  const group = state.groups.get(groupId);
  const role = state.roles.get(roleId);
  if (!group || !role || role.groupId !== groupId) throw vrcError(404, "Can't find role!");
  const old = [...role.permissions];
  role.permissions = [...new Set(permissions)];
  role.updatedAt = new Date().toISOString();
  state.addAudit({
    groupId,
    actorId: group.ownerId,
    targetId: role.id,
    eventType: 'group.role.update',
    description: `${state.displayName(group.ownerId)} updated the role "${role.name}".`,
    data: { permissions: { old, new: [...role.permissions] } },
  });
  return role;
}

/**
 * Sets a member's roles exactly, with no rank or permission checks (the owner in VRChat's own UI, or
 * VRChat itself for a purchased role). Each role given or taken is audited like the API does it.
 */
export function ownerSetsMemberRoles(
  state: VrchatState,
  groupId: string,
  userId: string,
  roleIds: string[],
): VrcMembership {
  const group = state.groups.get(groupId);
  if (!group) throw vrcError(404, "Can't find group!");
  const m = state.member(groupId, userId);
  if (!m) throw vrcError(404, 'User is not a member of this group.');
  for (const id of roleIds)
    if (state.roles.get(id)?.groupId !== groupId)
      throw vrcError(404, `Role ${id} is not a role of this group`);
  const wanted = [...new Set(roleIds)];
  const added = wanted.filter((id) => !m.roleIds.includes(id));
  const removed = m.roleIds.filter((id) => !wanted.includes(id));
  const targetName = state.displayName(userId);
  const ownerName = state.displayName(group.ownerId);
  for (const [roleId, add] of [
    ...added.map((id) => [id, true] as const),
    ...removed.map((id) => [id, false] as const),
  ]) {
    const old = [...m.roleIds];
    m.roleIds = add ? [...m.roleIds, roleId] : m.roleIds.filter((id) => id !== roleId);
    const role = state.roles.get(roleId);
    state.addAudit({
      groupId,
      actorId: group.ownerId,
      targetId: userId,
      eventType: add ? 'group.member.role.assign' : 'group.member.role.unassign',
      description: add
        ? `${ownerName} assigned the role "${role?.name}" to ${targetName}.`
        : `${ownerName} removed the role "${role?.name}" from ${targetName}.`,
      data: { roleId, roleName: role?.name, roleIds: { old, new: [...m.roleIds] } },
    });
  }
  return m;
}

/**
 * Benchmark seeding: `count` new users ("Bulk Member 000001", …, numbered on across calls; ids are
 * hashes of the number) who are already members, joined in the past one millisecond apart, oldest
 * first. Nothing is audited: they count as members from before any poller started.
 */
export function bulkAddMembers(
  state: VrchatState,
  groupId: string,
  count: number,
  roleIds: string[] = [],
): { created: number; userIds: string[] } {
  const group = state.groups.get(groupId);
  if (!group) throw vrcError(404, "Can't find group!");
  for (const id of roleIds)
    if (state.roles.get(id)?.groupId !== groupId)
      throw vrcError(404, `Role ${id} is not a role of this group`);
  const now = Date.now();
  const firstJoin = now - count - 60_000;
  const today = new Date(now).toISOString();
  const userIds: string[] = [];
  for (let i = 0; i < count; i++) {
    state.bulkUsers += 1;
    const seq = state.bulkUsers;
    const id = stableId('usr', `bulk:${seq}`);
    const displayName = `Bulk Member ${String(seq).padStart(6, '0')}`;
    state.users.set(id, freshUser(id, displayName, today, `bulk:${seq}`, { status: 'offline' }));
    const at = new Date(firstJoin + i).toISOString();
    state.setMembership({
      id: stableId('gmem', `bulk:${groupId}:${seq}`),
      groupId,
      userId: id,
      status: 'member',
      roleIds: [...roleIds],
      visibility: 'visible',
      isRepresenting: false,
      isSubscribedToAnnouncements: true,
      managerNotes: '',
      createdAt: at,
      joinedAt: at,
      bannedAt: null,
      acceptedById: group.ownerId,
    });
    if (userIds.length < 10) userIds.push(id);
  }
  return { created: count, userIds };
}

/** The group, when the user is a member of it; else VRChat's 404 (no such group) or 403 (not a member). */
function groupOfMember(state: VrchatState, groupId: string, userId: string) {
  const group = state.groups.get(groupId);
  if (!group) throw vrcError(404, "Can't find group!");
  if (!state.member(groupId, userId)) throw vrcError(403, "You're not a member.");
  return group;
}
