/**
 * What product code needs from the platforms. The adapters in ./vrchat and ./discord implement these;
 * tests of product logic use the adapters against the simulators, never fakes of these interfaces.
 */
export interface VrchatUserSummary {
  id: string;
  displayName: string;
  thumbnailUrl: string | null;
}

export type VrchatAgeVerificationStatus = '18+' | 'hidden' | 'verified';

export interface VrchatUserDetail extends VrchatUserSummary {
  bio: string;
  ageVerificationStatus: VrchatAgeVerificationStatus;
  ageVerified: boolean;
}

export interface VrchatGroupRole {
  id: string;
  name: string;
  /** Lower order = higher rank. */
  order: number;
  isManagementRole: boolean;
  /** Given by VRChat through a purchase (a subscription): read-only for the product, never mapped. */
  requiresPurchase: boolean;
  permissions: string[];
}

export interface VrchatGroup {
  id: string;
  name: string;
  shortCode: string | null;
  description: string;
  iconUrl: string | null;
  bannerUrl: string | null;
  ownerId: string | null;
  memberCount: number;
  /** Members not offline (0 when VRChat leaves it out). */
  onlineMemberCount: number;
  joinState: 'open' | 'request' | 'invite' | 'closed' | null;
  /** The product's own account in the group: member, requested, invited, banned, userblocked, inactive. */
  membershipStatus: string | null;
  /** Only when asked for with `includeRoles`. */
  roles: VrchatGroupRole[] | null;
}

export interface VrchatGroupMember {
  userId: string;
  displayName: string | null;
  thumbnailUrl: string | null;
  roleIds: string[];
  membershipStatus: string;
  joinedAt: string | null;
}

export interface VrchatJoinRequest {
  userId: string;
  displayName: string | null;
  thumbnailUrl: string | null;
  requestedAt: string | null;
}

/** What asking to join a group came to for the product's account. */
export type VrchatJoinOutcome = 'member' | 'requested' | 'invite_only' | 'refused';

export type VrchatInviteOutcome = 'invited' | 'already_member' | 'already_invited' | 'blocked';

export interface VrchatAuditEntry {
  id: string;
  createdAt: string | null;
  eventType: string;
  actorId: string | null;
  actorDisplayName: string | null;
  targetId: string | null;
  description: string;
  data: Record<string, unknown>;
}

export interface VrchatAuditQuery {
  n?: number;
  offset?: number;
  startDate?: Date;
  endDate?: Date;
  actorIds?: string[];
  eventTypes?: string[];
  targetIds?: string[];
}

/** A VRChat bot account as the manager sees it (to invite it to a group). */
export interface VrchatAccountProfile {
  /** The configured account (its login name), as stored with a linked group. */
  account: string;
  userId: string;
  displayName: string;
}

/**
 * The product's VRChat accounts: one or more bot accounts, each with its own login and request budget. A
 * group's calls go through the account that serves the group (assigned when it was linked; the first
 * account for a group not linked); calls tied to no group (user look-ups, searches) through any of them.
 */
export interface VrchatPort extends VrchatAccountPort {
  /** The configured accounts, in order (the first serves the links made before there were several). */
  accounts(): string[];
  /** One account's own calls (the link flow asks each account before the group is linked). */
  forAccount(account: string): VrchatAccountPort;
  /** The account serving a group: its stored assignment, else the first account. */
  accountOf(groupId: string): Promise<string>;
  /** The bot account's VRChat user (looked up once per process). */
  accountProfile(account: string): Promise<VrchatAccountProfile>;
  /** Every bot account's VRChat user id that can be looked up now (none of them is a member to remove). */
  accountUserIds(): Promise<string[]>;
  /** The sustained requests a second of each account's budget (the follow sets its cadence from it). */
  requestsPerSecond(): number;
}

/** One VRChat bot account's calls. */
export interface VrchatAccountPort {
  /** The bot account's VRChat user id (with a group: the account serving that group). */
  currentUserId(groupId?: string): Promise<string>;
  searchUsers(query: string, opts?: { n?: number; offset?: number }): Promise<VrchatUserSummary[]>;
  /** null when VRChat does not know the user. */
  getUser(id: string): Promise<VrchatUserDetail | null>;
  /** null when the group does not exist. */
  getGroup(groupId: string, opts?: { includeRoles?: boolean }): Promise<VrchatGroup | null>;
  /** null when the user is not a member of the group. */
  getGroupMember(groupId: string, userId: string): Promise<VrchatGroupMember | null>;
  /**
   * Every member VRChat lists (paged through until a short page). VRChat stops listing large groups
   * (near 5,100 members): `complete` is false when the listing ended before the group's memberCount
   * was reached. With `roleId` the count per role is unknown, so it is false whenever the listing may
   * have been cut (it ended on a full page in a larger group).
   */
  listGroupMembers(
    groupId: string,
    opts?: { roleId?: string },
  ): Promise<{ members: VrchatGroupMember[]; complete: boolean }>;
  /** Users the group has invited who have not answered yet (paged through; needs group-invites-manage). */
  listGroupInvites(groupId: string): Promise<{ userId: string; displayName: string | null }[]>;
  getGroupRoles(groupId: string): Promise<VrchatGroupRole[]>;
  /** Answers the member's role ids after the change. */
  addGroupMemberRole(groupId: string, userId: string, roleId: string): Promise<string[]>;
  removeGroupMemberRole(groupId: string, userId: string, roleId: string): Promise<string[]>;
  inviteToGroup(groupId: string, userId: string): Promise<VrchatInviteOutcome>;
  /** Withdraws a pending invite; false when the user was not (or no longer) invited. */
  cancelGroupInvite(groupId: string, userId: string): Promise<boolean>;
  /** The product's account joins (open group, or accepting an invite) or asks to join (request-only). */
  joinGroup(groupId: string): Promise<VrchatJoinOutcome>;
  listJoinRequests(groupId: string): Promise<VrchatJoinRequest[]>;
  /**
   * 'too_many_groups': VRChat would not accept the request, the person is in too many groups (the request
   * stays pending).
   */
  respondJoinRequest(
    groupId: string,
    userId: string,
    action: 'accept' | 'reject',
    opts?: { block?: boolean },
  ): Promise<'done' | 'too_many_groups'>;
  /** false when the user was not a member. */
  kickGroupMember(groupId: string, userId: string): Promise<boolean>;
  getGroupAuditLogs(
    groupId: string,
    query?: VrchatAuditQuery,
  ): Promise<{ entries: VrchatAuditEntry[]; totalCount: number; hasNext: boolean }>;
}

export interface DiscordRoleInfo {
  id: string;
  name: string;
  position: number;
  /** RGB as an integer, 0 for none. */
  color: number;
  /** The role's permissions, as Discord's decimal bit string. */
  permissions: string;
  /** Managed by an integration (a bot's own role, a booster role): Discord lets nobody give it. */
  managed: boolean;
}

export interface DiscordGuildInfo {
  id: string;
  name: string;
  iconUrl: string | null;
  ownerId: string;
  /** Every role, @everyone (id = guild id) included, highest first. */
  roles: DiscordRoleInfo[];
}

export interface DiscordMemberInfo {
  userId: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  roles: string[];
}

/** A text channel of a server, with what the permission check needs (see botChannelPermissions). */
export interface DiscordChannelInfo {
  id: string;
  name: string;
  position: number;
  parentId: string | null;
  permissionOverwrites: { id: string; type: 'role' | 'member'; allow: string; deny: string }[];
}

/** A short rich embed, as Discord takes it. */
export interface DiscordEmbed {
  title: string;
  description?: string;
  color?: number;
  /** ISO time shown under the embed. */
  timestamp?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
}

/** A guild as the signed-in user sees it (OAuth `guilds` scope). */
export interface DiscordUserGuild {
  id: string;
  name: string;
  iconUrl: string | null;
  owner: boolean;
  /** The user's permissions in the guild, as Discord's decimal bit string. */
  permissions: string;
}

export interface DiscordPort {
  botGuildIds(): Promise<string[]>;
  /** null when the bot is not in the guild. */
  getGuild(guildId: string): Promise<DiscordGuildInfo | null>;
  /** null when the user is not a member. */
  getMember(guildId: string, userId: string): Promise<DiscordMemberInfo | null>;
  /** The bot's own membership (its roles decide which roles it may give); null when it is not in the guild. */
  botMember(guildId: string): Promise<DiscordMemberInfo | null>;
  searchMembers(guildId: string, query: string, limit: number): Promise<DiscordMemberInfo[]>;
  listMembers(guildId: string): Promise<DiscordMemberInfo[]>;
  /** Throws DiscordPermissionError when the bot may not manage the role. */
  addRole(guildId: string, userId: string, roleId: string, reason?: string): Promise<void>;
  removeRole(guildId: string, userId: string, roleId: string, reason?: string): Promise<void>;
  /** Answers the message id. Mentions in `content` never ping. */
  sendMessage(channelId: string, content: string): Promise<string>;
  /** The server's text and announcement channels, in Discord's order (REST, never a cache). */
  listTextChannels(guildId: string): Promise<DiscordChannelInfo[]>;
  /**
   * Posts one embed; answers the message id. Nobody is pinged. With a `nonce` Discord enforces it: the same
   * nonce sent again within a few minutes answers the message already made and posts nothing new.
   */
  postEmbed(channelId: string, embed: DiscordEmbed, opts?: { nonce?: string }): Promise<string>;
  /** The guilds of the user behind an OAuth access token with the `guilds` scope. */
  userGuilds(accessToken: string): Promise<DiscordUserGuild[]>;
}

/** A member as Discord sends it (gateway chunks, events, REST), in the shape the member mirror stores. */
export interface DiscordMemberRecord {
  userId: string;
  username: string;
  globalName: string | null;
  nickname: string | null;
  /** The guild avatar hash when the member has one, else the user's. */
  avatar: string | null;
  guildAvatar: boolean;
  bot: boolean;
  roleIds: string[];
  joinedAt: Date | null;
}

/** Where the member mirror gets members from: the gateway (op 8) or REST, with Discord's own rules. */
export interface DiscordMemberSource {
  /** Whether the application may use the Guild Members intent (application flags from Discord). */
  membersIntentAvailable(): Promise<boolean>;
  /** Whether the connected gateway session receives member events (identified with Guild Members). */
  gatewayHasMembersIntent(): boolean;
  /** Discord's member count for the guild (GUILD_CREATE's, else REST's approximate count); null if unknown. */
  memberCount(guildId: string): Promise<number | null>;
  /**
   * Every member through the gateway (op 8, chunks of ≤ 1,000), each chunk handed over as it arrives.
   * Throws MembersRateLimitedError when Discord says to wait (once per guild every 30 s).
   */
  streamAllMembers(
    guildId: string,
    onChunk: (members: DiscordMemberRecord[]) => Promise<void>,
  ): Promise<void>;
  /** Every member through REST (`GET /guilds/{id}/members?limit=1000&after=`), a page at a time. */
  pageAllMembers(guildId: string, onPage: (members: DiscordMemberRecord[]) => Promise<void>): Promise<void>;
  /** One member over REST (no privileged intent); null when not a member. */
  fetchMember(guildId: string, userId: string): Promise<DiscordMemberRecord | null>;
  /** Discord's member search (username / nickname prefix) over REST. */
  searchMembers(guildId: string, query: string, limit: number): Promise<DiscordMemberRecord[]>;
}
