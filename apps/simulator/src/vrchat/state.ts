import { newId } from './ids.js';
import type { VrchatRateConfig } from './ratelimit.js';

export type AgeVerificationStatus = '18+' | 'hidden' | 'verified';
export type DeveloperType = 'none' | 'trusted' | 'internal' | 'moderator';
export type UserState = 'online' | 'active' | 'offline';
export type UserStatus = 'active' | 'join me' | 'ask me' | 'busy' | 'offline';
export type JoinState = 'open' | 'request' | 'invite' | 'closed';
export type MembershipStatus = 'member' | 'invited' | 'requested' | 'userblocked' | 'banned';
export type Visibility = 'visible' | 'friends' | 'hidden';

export interface VrcUser {
  id: string;
  displayName: string;
  bio: string;
  bioLinks: string[];
  pronouns: string;
  ageVerificationStatus: AgeVerificationStatus;
  ageVerified: boolean;
  developerType: DeveloperType;
  state: UserState;
  status: UserStatus;
  statusDescription: string;
  tags: string[];
  /** YYYY-MM-DD */
  dateJoined: string;
  lastLogin: string;
  lastActivity: string;
  lastPlatform: string;
  avatarId: string;
  hasProfilePic: boolean;
  allowAvatarCopying: boolean;
  pastDisplayNames: { displayName: string; updated_at: string }[];
}

/** A user that can log in (the bot and test accounts). */
export interface VrcAccount {
  userId: string;
  username: string;
  email: string;
  password: string;
  /** Base32; when set the account has TOTP 2FA enabled. */
  totpSecret?: string;
  /** One-use recovery codes accepted by /auth/twofactorauth/otp/verify. */
  recoveryCodes: string[];
  twoFactorEnabledAt?: string;
}

export interface VrcGroup {
  id: string;
  name: string;
  shortCode: string;
  discriminator: string;
  description: string;
  rules: string;
  joinState: JoinState;
  privacy: 'default' | 'private';
  ownerId: string;
  tags: string[];
  languages: string[];
  links: string[];
  isVerified: boolean;
  iconId: string;
  bannerId: string;
  createdAt: string;
  updatedAt: string;
}

export interface VrcRole {
  id: string;
  groupId: string;
  name: string;
  description: string;
  /** Rank: a lower number is a higher rank (the owner role is 0). */
  order: number;
  permissions: string[];
  isSelfAssignable: boolean;
  isManagementRole: boolean;
  requiresTwoFactor: boolean;
  requiresPurchase: boolean;
  createdAt: string;
  updatedAt: string;
}

/** One record per (group, user): a member, a pending invite or request, a block or a ban. */
export interface VrcMembership {
  id: string;
  groupId: string;
  userId: string;
  status: MembershipStatus;
  roleIds: string[];
  visibility: Visibility;
  isRepresenting: boolean;
  isSubscribedToAnnouncements: boolean;
  managerNotes: string;
  createdAt: string;
  joinedAt: string | null;
  bannedAt: string | null;
  acceptedById: string | null;
  /** A join request the group rejected with block=true: hidden unless requests?blocked=true. */
  requestBlocked?: boolean;
}

export interface VrcAuditEntry {
  id: string;
  created_at: string;
  groupId: string;
  actorId: string;
  actorDisplayName: string;
  targetId: string;
  eventType: string;
  description: string;
  data: Record<string, unknown>;
}

export interface VrcSession {
  token: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  /** False until the session passed 2FA (always true for accounts without 2FA). */
  twoFactorDone: boolean;
  /** The client address the session was created from (see VrcConfig.sessionAddressBinding). */
  address?: string;
}

export interface VrcConfig {
  rate: VrchatRateConfig;
  /** Basic logins per account allowed within the window before 429 'Created too many sessions'. */
  sessionLimit: { max: number; windowSeconds: number };
  /**
   * How far `GET /groups/{groupId}/members` lists: real VRChat stops listing large groups near 5,100
   * members (later pages come back empty). offset + results never pass it; single-member reads and
   * the search are not affected.
   */
  groupMemberListCap: number;
  /**
   * Whether an `auth` cookie works only from the address it was created from (reports disagree, see
   * platforms.md A.4): 'off' (it works anywhere), or the status another address gets, 401 or 403.
   */
  sessionAddressBinding: 'off' | 401 | 403;
  /**
   * Groups one user may be in (VRChat's own limit is 100): joining, accepting an invite, a join request
   * being accepted and being invited past it answer 403 (see group-limit.ts).
   */
  maxGroupsPerUser: number;
}

export const DEFAULT_MAX_GROUPS_PER_USER = 100;

function indexed(index: Map<string, Map<string, VrcMembership>>, key: string): Map<string, VrcMembership> {
  let inner = index.get(key);
  if (!inner) {
    inner = new Map();
    index.set(key, inner);
  }
  return inner;
}

function withStatus(records: Map<string, VrcMembership> | undefined, status?: MembershipStatus) {
  const out: VrcMembership[] = [];
  for (const m of records?.values() ?? []) if (!status || m.status === status) out.push(m);
  return out;
}

export const DEFAULT_GROUP_MEMBER_LIST_CAP = 5100;

export class VrchatState {
  users = new Map<string, VrcUser>();
  accounts = new Map<string, VrcAccount>();
  groups = new Map<string, VrcGroup>();
  roles = new Map<string, VrcRole>();
  /** Keyed by `${groupId}:${userId}`. */
  memberships = new Map<string, VrcMembership>();
  /** The same records by group and by user, so a group's or a person's list does not scan the world. */
  private byGroup = new Map<string, Map<string, VrcMembership>>();
  private byUser = new Map<string, Map<string, VrcMembership>>();
  /** Per group, oldest first. */
  audit = new Map<string, VrcAuditEntry[]>();
  sessions = new Map<string, VrcSession>();
  /** twoFactorAuth cookie value → userId and expiry: lets a later Basic login on that device skip 2FA. */
  twoFactorTokens = new Map<string, { userId: string; expiresAt: number }>();
  /** Successful Basic logins per userId (epoch ms), for the session limit. */
  logins = new Map<string, number[]>();
  /** How many users the control API's bulk-members call has made (numbers their names). */
  bulkUsers = 0;
  /** How many groups the control API's bulk-groups call has made (numbers their names). */
  bulkGroups = 0;

  /**
   * @param timeScale every VRChat window (rate limit, blocks, the session limit's window) is this many
   * times shorter (SimulatorOptions.timeScale)
   */
  constructor(
    public config: VrcConfig,
    readonly timeScale = 1,
  ) {}

  /** Forgets everything (the caller seeds again); config stays. */
  reset(): void {
    for (const map of [
      this.users,
      this.accounts,
      this.groups,
      this.roles,
      this.memberships,
      this.audit,
      this.sessions,
      this.twoFactorTokens,
      this.logins,
      this.byGroup,
      this.byUser,
    ])
      map.clear();
    this.bulkUsers = 0;
    this.bulkGroups = 0;
  }

  accountByLogin(login: string): VrcAccount | undefined {
    const needle = login.toLowerCase();
    for (const account of this.accounts.values())
      if (account.username.toLowerCase() === needle || account.email.toLowerCase() === needle) return account;
    return undefined;
  }

  membership(groupId: string, userId: string): VrcMembership | undefined {
    return this.memberships.get(`${groupId}:${userId}`);
  }

  /** Only a full member counts; invites, requests and blocks do not. */
  member(groupId: string, userId: string): VrcMembership | undefined {
    const m = this.membership(groupId, userId);
    return m?.status === 'member' ? m : undefined;
  }

  setMembership(m: VrcMembership): void {
    this.memberships.set(`${m.groupId}:${m.userId}`, m);
    indexed(this.byGroup, m.groupId).set(m.userId, m);
    indexed(this.byUser, m.userId).set(m.groupId, m);
  }

  deleteMembership(groupId: string, userId: string): void {
    this.memberships.delete(`${groupId}:${userId}`);
    this.byGroup.get(groupId)?.delete(userId);
    this.byUser.get(userId)?.delete(groupId);
  }

  /** Creates or replaces the (group, user) record with a fresh one in the given status. */
  putMembership(groupId: string, userId: string, status: MembershipStatus, now = new Date()): VrcMembership {
    const iso = now.toISOString();
    const m: VrcMembership = {
      id: this.membership(groupId, userId)?.id ?? newId('gmem'),
      groupId,
      userId,
      status,
      roleIds: [],
      visibility: 'visible',
      isRepresenting: false,
      isSubscribedToAnnouncements: true,
      managerNotes: '',
      createdAt: iso,
      joinedAt: status === 'member' ? iso : null,
      bannedAt: status === 'banned' ? iso : null,
      acceptedById: null,
    };
    this.setMembership(m);
    return m;
  }

  groupMemberships(groupId: string, status?: MembershipStatus): VrcMembership[] {
    return withStatus(this.byGroup.get(groupId), status);
  }

  userMemberships(userId: string, status?: MembershipStatus): VrcMembership[] {
    return withStatus(this.byUser.get(userId), status);
  }

  /** Whether the user is in as many groups as one account may be (VrcConfig.maxGroupsPerUser). */
  atGroupLimit(userId: string): boolean {
    return this.userMemberships(userId, 'member').length >= this.config.maxGroupsPerUser;
  }

  groupRoles(groupId: string): VrcRole[] {
    return [...this.roles.values()].filter((r) => r.groupId === groupId).sort((a, b) => a.order - b.order);
  }

  addAudit(entry: Omit<VrcAuditEntry, 'id' | 'created_at' | 'actorDisplayName'>): VrcAuditEntry {
    const full: VrcAuditEntry = {
      id: newId('gaud'),
      created_at: new Date().toISOString(),
      actorDisplayName: this.users.get(entry.actorId)?.displayName ?? '',
      ...entry,
    };
    const list = this.audit.get(entry.groupId) ?? [];
    list.push(full);
    this.audit.set(entry.groupId, list);
    return full;
  }

  displayName(userId: string): string {
    return this.users.get(userId)?.displayName ?? userId;
  }
}
