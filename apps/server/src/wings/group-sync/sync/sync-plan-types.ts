/** The sync plan's input and output (see sync-plan.ts). */
import type { DiscordToGroupAction, GroupToDiscordAction } from '../../../db/schema/sync.js';

export type AgeStatus = 'Unverified' | 'Verified' | 'Plus18';
export type SyncReason =
  | Exclude<DiscordToGroupAction, 'None'>
  | 'AutoRemove'
  | 'LinkedRole'
  | 'Plus18Role'
  | 'AgeVerifiedRole';

export interface PlanMember {
  discordUserId: string;
  name: string;
  roleIds: readonly string[];
  link: { vrcUserId: string; vrchatName: string; verified: boolean; age: AgeStatus } | null;
}

export interface DiscordGroupRule {
  discordRoleId: string | null;
  groupRoleId: string | null;
  action: DiscordToGroupAction;
}

export interface GroupDiscordRule {
  groupRoleId: string | null;
  discordRoleId: string | null;
  action: GroupToDiscordAction;
}

export interface PlanGroup {
  /** 'Enable Groups feature': off means no group action at all (group-to-Discord still reads the group). */
  enabled: boolean;
  /** 'Auto Remove Members without membership'. */
  autoRemove: boolean;
  /** Observed members (vrcUserId → role ids). Possibly not everyone when the group is too large to list. */
  members: ReadonlyMap<string, readonly string[]>;
  /** Display names VRChat gave for members and invitees (for messages only). */
  names: ReadonlyMap<string, string>;
  pendingInvites: ReadonlySet<string>;
  joinRequests: ReadonlySet<string>;
  /** Invites the product already sent (or found blocked): never sent again until the user resets them. */
  alreadyInvited: ReadonlySet<string>;
  /**
   * Join requests VRChat refused to accept within the last day (too many groups): left pending, with a
   * warning, until then (user id → the recorded message).
   */
  refusedJoinRequests?: ReadonlyMap<string, string>;
  /** Owner, the bot, members ranked at or above the bot. */
  protectedUserIds: ReadonlySet<string>;
  /** Group roles the bot may give and take (below its rank, not purchase-only). */
  manageableRoleIds: ReadonlySet<string>;
  can: { invite: boolean; remove: boolean; assignRoles: boolean };
  discordToGroup: readonly DiscordGroupRule[];
  groupToDiscord: readonly GroupDiscordRule[];
}

/**
 * A role the bot gave and takes back once no rule grants it: through a GrantRoleTemporary mapping (recorded when
 * the write landed), or under an auto role setting since changed away from (`reason`: that setting's rule).
 */
export type TemporaryGrant =
  | { kind: 'discordRole'; discordUserId: string; roleId: string; reason?: SyncReason }
  | { kind: 'groupRole'; vrcUserId: string; roleId: string; reason?: SyncReason };

/** The key of a member's Discord role in `keep.discordRoles`. */
export const discordRoleKey = (discordUserId: string, roleId: string) => `${discordUserId}:${roleId}`;

/** The key of a member's group role in `keep.groupRoles`. */
export const groupRoleKey = (vrcUserId: string, roleId: string) => `${vrcUserId}:${roleId}`;

export interface SyncPlanInput {
  /** The guild id: a Discord-to-group rule on it (the @everyone entry) covers every linked member. */
  guildId: string;
  autoRoles: { linkedRoleId: string | null; plus18RoleId: string | null; ageVerifiedRoleId: string | null };
  /** Discord roles the bot may give and take. */
  manageableDiscordRoleIds: ReadonlySet<string>;
  members: readonly PlanMember[];
  group: PlanGroup | null;
  /** Temporary grants the bot made; each is taken back once no rule grants it. */
  temporaryGrants?: readonly TemporaryGrant[];
  /**
   * What the removal circuit breaker holds: these group members are not removed, these group roles
   * (`groupRoleKey`) and Discord roles (`discordRoleKey`) not taken, and nothing that would follow from their
   * going is planned.
   */
  keep?: {
    members?: ReadonlySet<string>;
    groupRoles?: ReadonlySet<string>;
    discordRoles?: ReadonlySet<string>;
  };
}

export type SyncAction =
  | { kind: 'invite'; vrcUserId: string; discordUserId: string | null; reason: SyncReason }
  | { kind: 'acceptRequest'; vrcUserId: string; discordUserId: string | null; reason: SyncReason }
  | { kind: 'remove'; vrcUserId: string; discordUserId: string | null; reason: SyncReason }
  | {
      kind: 'addGroupRole';
      vrcUserId: string;
      discordUserId: string | null;
      roleId: string;
      reason: SyncReason;
    }
  | {
      kind: 'removeGroupRole';
      vrcUserId: string;
      discordUserId: string | null;
      roleId: string;
      reason: SyncReason;
    }
  | { kind: 'addDiscordRole'; discordUserId: string; roleId: string; reason: SyncReason }
  | { kind: 'removeDiscordRole'; discordUserId: string; roleId: string; reason: SyncReason };

export type SyncActionKind = SyncAction['kind'];

export interface SyncWarning {
  kind: 'discordRole' | 'groupRole' | 'groupPermission' | 'joinRefused';
  /** The role (Discord or group), the permission the bot lacks, or the refused requester's VRChat id. */
  subject: string;
  reason: SyncReason;
}

export interface SyncPlan {
  actions: SyncAction[];
  warnings: SyncWarning[];
}
