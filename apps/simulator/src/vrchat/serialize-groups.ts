import { imagePaths } from './images.js';
import { img } from './serialize.js';
import type { VrcAuditEntry, VrcGroup, VrchatState, VrcMembership, VrcRole } from './state.js';

/**
 * State → the API's group shapes (Group, GroupMember, GroupRole, LimitedUserGroups,
 * GroupAuditLogEntry), following the spec's schemas field by field.
 */

export function toRole(r: VrcRole) {
  return {
    id: r.id,
    groupId: r.groupId,
    name: r.name,
    description: r.description,
    order: r.order,
    permissions: r.permissions,
    isSelfAssignable: r.isSelfAssignable,
    isManagementRole: r.isManagementRole,
    requiresTwoFactor: r.requiresTwoFactor,
    requiresPurchase: r.requiresPurchase,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** Management roles are listed in both roleIds and mRoleIds. */
function managementRoleIds(state: VrchatState, m: VrcMembership): string[] {
  return m.roleIds.filter((id) => state.roles.get(id)?.isManagementRole);
}

/**
 * `managerNotes` is only shown to callers who manage members; everyone else gets null.
 */
export function toGroupMember(base: string, state: VrchatState, m: VrcMembership, showNotes = false) {
  const u = state.users.get(m.userId);
  const acceptedBy = m.acceptedById ? state.users.get(m.acceptedById) : undefined;
  return {
    id: m.id,
    groupId: m.groupId,
    userId: m.userId,
    isRepresenting: m.isRepresenting,
    ...(u && {
      user: {
        id: u.id,
        displayName: u.displayName,
        thumbnailUrl: img(base, imagePaths.avatarThumbnail(u.id)),
        iconUrl: '',
        profilePicOverride: u.hasProfilePic ? img(base, imagePaths.profilePic(u.id)) : '',
        currentAvatarThumbnailImageUrl: img(base, imagePaths.avatarThumbnail(u.id)),
        currentAvatarTags: [],
      },
    }),
    roleIds: [...m.roleIds],
    mRoleIds: managementRoleIds(state, m),
    joinedAt: m.joinedAt,
    membershipStatus: m.status,
    visibility: m.visibility,
    isSubscribedToAnnouncements: m.isSubscribedToAnnouncements,
    isSubscribedToEventAnnouncements: m.isSubscribedToAnnouncements,
    createdAt: m.createdAt,
    bannedAt: m.bannedAt,
    managerNotes: showNotes ? m.managerNotes : null,
    lastPostReadAt: null,
    hasJoinedFromPurchase: false,
    acceptedById: m.acceptedById,
    acceptedByDisplayName: acceptedBy?.displayName ?? null,
  };
}

/** Effective permissions of a member: union of their roles', everything for the owner. */
export function memberPermissions(state: VrchatState, group: VrcGroup, userId: string): string[] {
  const m = state.member(group.id, userId);
  if (!m) return [];
  if (group.ownerId === userId) return ['*'];
  const perms = new Set<string>();
  for (const id of m.roleIds) for (const p of state.roles.get(id)?.permissions ?? []) perms.add(p);
  return [...perms].sort();
}

function toMyMember(state: VrchatState, group: VrcGroup, m: VrcMembership) {
  const acceptedBy = m.acceptedById ? state.users.get(m.acceptedById) : undefined;
  return {
    id: m.id,
    groupId: m.groupId,
    userId: m.userId,
    roleIds: [...m.roleIds],
    mRoleIds: managementRoleIds(state, m),
    acceptedByDisplayName: acceptedBy?.displayName ?? null,
    acceptedById: m.acceptedById,
    createdAt: m.createdAt,
    managerNotes: m.managerNotes,
    membershipStatus: m.status,
    isSubscribedToAnnouncements: m.isSubscribedToAnnouncements,
    isSubscribedToEventAnnouncements: m.isSubscribedToAnnouncements,
    visibility: m.visibility,
    isRepresenting: m.isRepresenting,
    joinedAt: m.joinedAt ?? m.createdAt,
    bannedAt: m.bannedAt,
    has2FA: Boolean(state.accounts.get(m.userId)?.totpSecret),
    hasJoinedFromPurchase: false,
    lastPostReadAt: null,
    permissions: memberPermissions(state, group, m.userId),
  };
}

export function memberCounts(state: VrchatState, groupId: string) {
  const members = state.groupMemberships(groupId, 'member');
  const online = members.filter((m) => state.users.get(m.userId)?.state !== 'offline').length;
  return { memberCount: members.length, onlineMemberCount: online };
}

function groupImages(base: string, g: VrcGroup) {
  return {
    iconId: g.iconId,
    iconUrl: img(base, imagePaths.groupIcon(g.id)),
    bannerId: g.bannerId,
    bannerUrl: img(base, imagePaths.groupBanner(g.id)),
  };
}

/** The group's fields both group views share, in VRChat's order (after the id). */
const groupHead = (base: string, g: VrcGroup) => ({
  name: g.name,
  shortCode: g.shortCode,
  discriminator: g.discriminator,
  description: g.description,
  ...groupImages(base, g),
  ownerId: g.ownerId,
});

/** GET /groups/{groupId} as seen by `callerId`. */
export function toGroup(
  base: string,
  state: VrchatState,
  g: VrcGroup,
  callerId: string,
  includeRoles: boolean,
) {
  const mine = state.membership(g.id, callerId);
  return {
    id: g.id,
    ...groupHead(base, g),
    rules: g.rules,
    links: g.links,
    languages: g.languages,
    badges: [],
    ...memberCounts(state, g.id),
    memberCountSyncedAt: new Date().toISOString(),
    isVerified: g.isVerified,
    joinState: g.joinState,
    tags: g.tags,
    galleries: [],
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
    lastPostCreatedAt: null,
    privacy: g.privacy,
    membershipStatus: mine?.status ?? 'inactive',
    ...(mine?.status === 'member' && { myMember: toMyMember(state, g, mine) }),
    ...(includeRoles && { roles: state.groupRoles(g.id).map(toRole) }),
  };
}

/** GET /users/{userId}/groups: one entry per group the user is a member of. */
export function toLimitedUserGroup(base: string, state: VrchatState, g: VrcGroup, m: VrcMembership) {
  return {
    id: m.id,
    groupId: g.id,
    ...groupHead(base, g),
    privacy: g.privacy,
    memberCount: memberCounts(state, g.id).memberCount,
    memberVisibility: m.visibility,
    isRepresenting: m.isRepresenting,
    mutualGroup: false,
    lastPostCreatedAt: null,
    lastPostReadAt: null,
  };
}

export function toAuditEntry(e: VrcAuditEntry) {
  return { ...e };
}
