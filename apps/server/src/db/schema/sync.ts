import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const discordToGroupActions = [
  'None',
  'Membership',
  'NoMembership',
  'GrantRolePermanent',
  'GrantRoleTemporary',
  'RevokeRole',
] as const;
export type DiscordToGroupAction = (typeof discordToGroupActions)[number];

export const groupToDiscordActions = ['None', 'GrantRolePermanent', 'GrantRoleTemporary'] as const;
export type GroupToDiscordAction = (typeof groupToDiscordActions)[number];

/**
 * Discord to group: holders of `discordRoleId` (the guild id = @everyone, i.e. every linked member) get the
 * action in the server's linked VRChat group. `groupRoleId` is used by the Grant/Revoke actions only.
 */
export const discordGroupMappings = pgTable(
  'discord_group_mappings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    guildId: text('guild_id').notNull(),
    discordRoleId: text('discord_role_id'),
    groupRoleId: text('group_role_id'),
    action: text('action', { enum: discordToGroupActions }).notNull().default('None'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Counts the entry's saves; a save names the version it was read at (no lost update). */
    version: integer('version').notNull().default(0),
  },
  (t) => [index('discord_group_mappings_guild_idx').on(t.guildId)],
);

/** Group to Discord: linked members holding `groupRoleId` in the group get `discordRoleId` in the server. */
export const groupDiscordMappings = pgTable(
  'group_discord_mappings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    guildId: text('guild_id').notNull(),
    groupRoleId: text('group_role_id'),
    discordRoleId: text('discord_role_id'),
    action: text('action', { enum: groupToDiscordActions }).notNull().default('None'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Counts the entry's saves; a save names the version it was read at (no lost update). */
    version: integer('version').notNull().default(0),
  },
  (t) => [index('group_discord_mappings_guild_idx').on(t.guildId)],
);

/**
 * Per server: what the sync last did. `warnings` are problems the bot cannot fix itself (a role above its own, a
 * missing permission), shown on the Discord and VRChat tabs. `heldRemovals`/`heldAt` are no longer written:
 * what the circuit breaker holds is in `sync_held_removals`, one row per removal.
 */
export const guildSyncState = pgTable('guild_sync_state', {
  guildId: text('guild_id').primaryKey(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  /** When a sync last started; later than lastRunAt: it did not finish (failed, or its worker died). */
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  /**
   * When a sync last wrote to the linked group (database clock, kept to the microsecond as text): a preview in
   * any process reads the group again when it changed since its cached read began (group-reads.ts).
   */
  groupWrittenAt: timestamp('group_written_at', { withTimezone: true, mode: 'string' }),
  lastResult: jsonb('last_result').$type<Record<string, unknown>>(),
  heldRemovals: jsonb('held_removals').$type<unknown[]>(),
  heldAt: timestamp('held_at', { withTimezone: true }),
  warnings: jsonb('warnings').$type<unknown[]>().notNull().default([]),
  /** The newest group audit-log entry already read (joins, leaves, removals are followed from there). */
  groupAuditCursor: timestamp('group_audit_cursor', { withTimezone: true }),
  /** Following the group's audit log failed this many times in a row (0: it works); retried on a backoff. */
  followFailures: integer('follow_failures').notNull().default(0),
  /** Why following failed last (a sentence shown in the sync warnings and the setup doctor). */
  followError: text('follow_error'),
  /** Not polled again before this (the backoff after a failure). */
  followRetryAt: timestamp('follow_retry_at', { withTimezone: true }),
  /**
   * When the group was last polled (read or tried): each pass of groups.follow takes the groups polled longest
   * ago first, so a pass that runs out of time is resumed by the next one, round-robin (any process).
   */
  followedAt: timestamp('followed_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const heldRemovalKinds = ['remove', 'removeGroupRole', 'removeDiscordRole'] as const;
export const heldDecisions = ['apply', 'keep'] as const;

/**
 * A removal the circuit breaker held (a member from the group, a group role, a Discord role), remembered until a
 * manager applies it (`decision` 'apply': the next sync carries it out) or its cause goes away (the rules stop
 * asking for it: the row is deleted). 'keep' (Discard): the manager declined it; it stays held, never applied.
 * `key` is the breaker's (`heldKeyOf`): the VRChat user id, `grole:<user>:<role>` or `drole:<user>:<role>`.
 */
export const syncHeldRemovals = pgTable(
  'sync_held_removals',
  {
    guildId: text('guild_id').notNull(),
    key: text('key').notNull(),
    kind: text('kind', { enum: heldRemovalKinds }).notNull(),
    vrcUserId: text('vrc_user_id'),
    discordUserId: text('discord_user_id'),
    roleId: text('role_id'),
    /** The rule that asked for it (AutoRemove, NoMembership, RevokeRole, LinkedRole…). */
    reason: text('reason').notNull(),
    /** Names when it was held, for the list (the member may have left since). */
    targetName: text('target_name').notNull(),
    roleName: text('role_name'),
    heldAt: timestamp('held_at', { withTimezone: true }).notNull().defaultNow(),
    decision: text('decision', { enum: heldDecisions }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.key] })],
);

/**
 * A platform write the sync is making: written before the call, deleted with the audit entry once its result
 * is known. A row left behind means the process stopped (or the answer was lost) between the two; the next
 * run of that server settles it (sync-apply.ts settleIntents), so a write that did land is still logged.
 */
export const syncIntents = pgTable(
  'sync_intents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    guildId: text('guild_id').notNull(),
    action: jsonb('action').$type<Record<string, unknown>>().notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sync_intents_guild_idx').on(t.guildId)],
);

/**
 * A role the bot gave through a GrantRoleTemporary mapping: a Discord role (`targetId` = the Discord user) or a
 * group role (`targetId` = the VRChat user). Written with the write's audit entry, deleted when the role is
 * taken; the planner takes back each one no rule grants any more (unlink, lost verification, the member left,
 * the mapping changed or was deleted), and never a role the bot did not give.
 */
export const syncTemporaryGrants = pgTable(
  'sync_temporary_grants',
  {
    guildId: text('guild_id').notNull(),
    kind: text('kind', { enum: ['discordRole', 'groupRole'] }).notNull(),
    targetId: text('target_id').notNull(),
    roleId: text('role_id').notNull(),
    /** The rule that gave it: GrantRoleTemporary, or an auto role's (LinkedRole…) when that setting changed. */
    reason: text('reason').notNull().default('GrantRoleTemporary'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.kind, t.targetId, t.roleId] })],
);

/**
 * Join requests VRChat would not let the sync accept ("…can't join right now because they're in too many
 * groups"): the sync does not ask again for a day, and the tabs say why (audit-logged once, when it came).
 */
export const groupJoinRefusals = pgTable(
  'group_join_refusals',
  {
    groupId: text('group_id').notNull(),
    vrcUserId: text('vrc_user_id').notNull(),
    message: text('message').notNull(),
    refusedAt: timestamp('refused_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.vrcUserId] })],
);

/** A linked group's role as the cache keeps it (VRChat's GroupRole, the fields the product reads). */
export interface CachedGroupRole {
  id: string;
  name: string;
  order: number;
  isManagementRole: boolean;
  requiresPurchase: boolean;
  permissions: string[];
}

/**
 * Each linked group's roles as VRChat last answered them, so the world list, its previews and the world data
 * read no VRChat on every call. Refreshed when groups.follow sees a role change in the group's audit log, when
 * a manager opens the role-mapping dialogs and by groups.roles (slowly); deleted when no server links the group.
 */
export const groupRoleCache = pgTable('group_role_cache', {
  groupId: text('group_id').primaryKey(),
  roles: jsonb('roles').$type<CachedGroupRole[]>().notNull(),
  /** When VRChat answered these roles. */
  readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  /** A role change was seen but the read after it failed: the copy may be out of date; refreshed first. */
  staleSince: timestamp('stale_since', { withTimezone: true }),
});
