import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** VRChat groups linked to a Discord server (managed in the server settings). */
export const guildGroups = pgTable(
  'guild_groups',
  {
    guildId: text('guild_id').notNull(),
    groupId: text('group_id').notNull(),
    name: text('name').notNull(),
    iconUrl: text('icon_url'),
    /** The group feature (role sync) runs only when on; off for a new link. */
    enabled: boolean('enabled').notNull().default(false),
    /** Removes group members without the membership the role mappings give. */
    autoKick: boolean('auto_kick').notNull().default(false),
    /**
     * The VRChat bot account (its username) that serves the group, chosen at link time; null: the first
     * configured account (links made before there were several).
     */
    vrchatAccount: text('vrchat_account'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('guild_groups_guild_idx').on(t.guildId),
    index('guild_groups_pk').on(t.guildId, t.groupId),
    index('guild_groups_group_idx').on(t.groupId),
  ],
);

/** The description code proving a server admin manages a VRChat group; stable until used, 24 hours at most. */
export const groupLinkCodes = pgTable(
  'group_link_codes',
  {
    guildId: text('guild_id').notNull(),
    groupId: text('group_id').notNull(),
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.groupId] })],
);

/**
 * A guest-role entry: holders of the main role may give `count` people the guest role. A new entry starts
 * empty (roles null, count 0) and gives no slots until both roles are chosen.
 */
export const guestRoles = pgTable(
  'guest_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    guildId: text('guild_id').notNull(),
    mainRoleId: text('main_role_id'),
    guestRoleId: text('guest_role_id'),
    count: integer('count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Counts the entry's saves; a save names the version it was read at (no lost update). */
    version: integer('version').notNull().default(0),
  },
  (t) => [index('guest_roles_guild_idx').on(t.guildId)],
);

/**
 * What a guest record is doing with Discord: 'assigning' (committed, the guest role not yet confirmed given),
 * 'active' (the role is given), 'removing' (committed, the role not yet taken back). The reconciliation
 * finishes what a crash left half done; a guest role held without any record was not given by the product
 * and is left alone.
 */
export const guestStates = ['assigning', 'active', 'removing'] as const;
export type GuestState = (typeof guestStates)[number];

/** A guest a host assigned: a Discord member (given the guest role) or a VRChat-only guest (world data). */
export const guests = pgTable(
  'guests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    guildId: text('guild_id').notNull(),
    hostUserId: text('host_user_id').notNull(),
    guestRoleId: text('guest_role_id').notNull(),
    guestDiscordId: text('guest_discord_id'),
    guestUsername: text('guest_username'),
    guestVrcId: text('guest_vrc_id'),
    guestVrcName: text('guest_vrc_name'),
    guestProfilePicUrl: text('guest_profile_pic_url'),
    /** See `guestStates`; a 'removing' guest no longer counts (slot free, not listed, not in world data). */
    state: text('state', { enum: guestStates }).notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('guests_host_idx').on(t.guildId, t.hostUserId)],
);
