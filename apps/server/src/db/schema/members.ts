import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { DiscordChannelInfo, DiscordMemberInfo, DiscordRoleInfo } from '../../platforms/ports.js';

/**
 * The member mirror: every member of every server the bot is in, as the gateway and REST last told us.
 * Real Discord sends no member list in GUILD_CREATE, so everything that reads members reads this table.
 * A member who left keeps a row with `leftAt` set until the next full reconciliation deletes it.
 */
export const guildMembers = pgTable(
  'guild_members',
  {
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    username: text('username').notNull(),
    globalName: text('global_name'),
    nickname: text('nickname'),
    /** Discord's avatar hash (guild avatar first, else the user's); URLs are built on read. */
    avatar: text('avatar'),
    /** True when the avatar hash is the member's guild avatar. */
    guildAvatar: boolean('guild_avatar').notNull().default(false),
    bot: boolean('bot').notNull().default(false),
    roleIds: text('role_ids').array().notNull().default(sql`'{}'::text[]`),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
    leftAt: timestamp('left_at', { withTimezone: true }),
    /** When this row was last confirmed from Discord (a reconciliation deletes rows it did not confirm). */
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.guildId, t.userId] }),
    index('guild_members_user_idx').on(t.userId),
    // Prefix search (`lower(x) like 'ab%'`) uses the btree pattern indexes; infix search the trigram ones.
    index('guild_members_username_prefix_idx').on(t.guildId, sql`lower(${t.username}) text_pattern_ops`),
    index('guild_members_global_name_prefix_idx').on(t.guildId, sql`lower(${t.globalName}) text_pattern_ops`),
    index('guild_members_nickname_prefix_idx').on(t.guildId, sql`lower(${t.nickname}) text_pattern_ops`),
    // Server first (btree_gin's operator class for the text guild_id), so an infix search reads the
    // trigrams' entries of this server's members, not of every member of every server.
    index('guild_members_guild_username_trgm_idx').using(
      'gin',
      t.guildId,
      sql`lower(${t.username}) gin_trgm_ops`,
    ),
    index('guild_members_guild_global_name_trgm_idx').using(
      'gin',
      t.guildId,
      sql`lower(${t.globalName}) gin_trgm_ops`,
    ),
    index('guild_members_guild_nickname_trgm_idx').using(
      'gin',
      t.guildId,
      sql`lower(${t.nickname}) gin_trgm_ops`,
    ),
  ],
);

/** Per server: how complete the mirror is and when it was last reconciled with Discord. */
export const guildMemberSync = pgTable('guild_member_sync', {
  guildId: text('guild_id').primaryKey(),
  /** `full`: every member (Guild Members intent); `linked`: only linked members, fetched one by one. */
  mode: text('mode', { enum: ['full', 'linked'] }).notNull(),
  /** Discord's own member count (GUILD_CREATE `member_count`, kept current by joins and leaves). */
  memberCount: integer('member_count').notNull().default(0),
  /** Set by the last complete fill; null until the first one finished. */
  filledAt: timestamp('filled_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Per server: how many current members the mirror holds and how many of them have a VRChat link. Kept up to
 * date by statement triggers on guild_members and vrchat_links (migration 0030), so the Discord tab reads two
 * numbers instead of counting a big server's rows on every load; a complete fill counts again (a link and a
 * join committed at the same moment can each miss the other).
 */
export const guildMemberTotals = pgTable('guild_member_totals', {
  guildId: text('guild_id').primaryKey(),
  members: integer('members').notNull().default(0),
  linked: integer('linked').notNull().default(0),
});

/**
 * The server snapshot: each server the bot is in as the gateway holder last saw it (GUILD_CREATE, GUILD_UPDATE,
 * role events, the bot's own member updates). API processes answer server reads (name, owner, roles, the bot's
 * roles) from here and never from Discord. A row goes when the bot leaves (GUILD_DELETE).
 */
export const guildSnapshots = pgTable('guild_snapshots', {
  guildId: text('guild_id').primaryKey(),
  name: text('name').notNull(),
  iconUrl: text('icon_url'),
  ownerId: text('owner_id').notNull(),
  /** Every role, @everyone included, highest first: id, name, position, color, permissions, managed. */
  roles: jsonb('roles').$type<DiscordRoleInfo[]>().notNull(),
  /** The bot's own membership (its role ids decide its highest role and permissions); null if unknown. */
  botMember: jsonb('bot_member').$type<DiscordMemberInfo | null>(),
  /** Its text and announcement channels with their permission overwrites; null until the holder writes them. */
  channels: jsonb('channels').$type<DiscordChannelInfo[] | null>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Per gateway shard: when its holder last wrote the snapshot of every server of the shard (at READY). A server
 * of a loaded shard without a snapshot row is one the bot is not in; before that, reads answer "not loaded yet".
 */
export const guildSnapshotShards = pgTable(
  'guild_snapshot_shards',
  {
    shardId: integer('shard_id').notNull(),
    shardCount: integer('shard_count').notNull(),
    loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shardCount, t.shardId] })],
);
