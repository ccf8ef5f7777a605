import type { Group, GroupAuditLogEntry, GroupMember, GroupRole, LimitedUserSearch, User } from 'vrchat';
import type {
  VrchatAgeVerificationStatus,
  VrchatAuditEntry,
  VrchatGroup,
  VrchatGroupMember,
  VrchatGroupRole,
  VrchatJoinRequest,
  VrchatUserDetail,
  VrchatUserSummary,
} from '../ports.js';

/** VRChat sends '' for "no image"; the product wants null. */
const url = (...candidates: (string | null | undefined)[]) =>
  candidates.find((c) => typeof c === 'string' && c.length > 0) ?? null;

/** The SDK turns some timestamps into Dates, others stay strings; the product wants ISO strings. */
const iso = (value: Date | string | null | undefined): string | null => {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

const ageStatuses: readonly string[] = ['18+', 'hidden', 'verified'];

export function toUserSummary(u: LimitedUserSearch): VrchatUserSummary {
  return {
    id: u.id,
    displayName: u.displayName,
    thumbnailUrl: url(u.profilePicOverride, u.currentAvatarThumbnailImageUrl),
  };
}

export function toUserDetail(u: User): VrchatUserDetail {
  return {
    id: u.id,
    displayName: u.displayName,
    thumbnailUrl: url(u.profilePicOverrideThumbnail, u.profilePicOverride, u.currentAvatarThumbnailImageUrl),
    bio: u.bio ?? '',
    // Unknown future values read as 'hidden': the product then only trusts `ageVerified`.
    ageVerificationStatus: (ageStatuses.includes(u.ageVerificationStatus)
      ? u.ageVerificationStatus
      : 'hidden') as VrchatAgeVerificationStatus,
    ageVerified: u.ageVerified === true,
  };
}

export function toRole(r: GroupRole): VrchatGroupRole {
  return {
    id: r.id ?? '',
    name: r.name ?? '',
    order: r.order ?? Number.MAX_SAFE_INTEGER,
    isManagementRole: r.isManagementRole === true,
    requiresPurchase: r.requiresPurchase === true,
    permissions: [...(r.permissions ?? [])],
  };
}

export function toGroup(g: Group): VrchatGroup {
  return {
    id: g.id ?? '',
    name: g.name ?? '',
    shortCode: g.shortCode && g.discriminator ? `${g.shortCode}.${g.discriminator}` : (g.shortCode ?? null),
    description: g.description ?? '',
    iconUrl: url(g.iconUrl),
    bannerUrl: url(g.bannerUrl),
    ownerId: g.ownerId ?? null,
    memberCount: g.memberCount ?? 0,
    onlineMemberCount: g.onlineMemberCount ?? 0,
    joinState: g.joinState ?? null,
    membershipStatus: g.membershipStatus ?? null,
    roles: g.roles ? g.roles.map(toRole) : null,
  };
}

/** Who a member or join request is: the user's id, name and picture (the single-member answer lacks `user`). */
const whoOf = (m: Pick<GroupMember, 'userId'> & { user?: GroupMember['user'] }) => ({
  userId: m.userId ?? m.user?.id ?? '',
  displayName: m.user?.displayName ?? null,
  thumbnailUrl: url(m.user?.profilePicOverride, m.user?.thumbnailUrl, m.user?.currentAvatarThumbnailImageUrl),
});

/** Members from the list, search and single-member endpoints (the last one lacks `user`). */
export function toMember(m: Omit<GroupMember, 'user'> & { user?: GroupMember['user'] }): VrchatGroupMember {
  return {
    ...whoOf(m),
    roleIds: [...(m.roleIds ?? [])],
    membershipStatus: m.membershipStatus ?? 'member',
    joinedAt: iso(m.joinedAt),
  };
}

export function toJoinRequest(m: GroupMember): VrchatJoinRequest {
  return {
    ...whoOf(m),
    requestedAt: iso(m.createdAt),
  };
}

export function toInvite(m: GroupMember): { userId: string; displayName: string | null } {
  return { userId: m.userId ?? m.user?.id ?? '', displayName: m.user?.displayName ?? null };
}

export function toAuditEntry(e: GroupAuditLogEntry): VrchatAuditEntry {
  return {
    id: e.id ?? '',
    createdAt: iso(e.created_at),
    eventType: e.eventType ?? '',
    actorId: e.actorId ?? null,
    actorDisplayName: e.actorDisplayName ?? null,
    targetId: e.targetId ?? null,
    description: e.description ?? '',
    data: e.data ?? {},
  };
}
