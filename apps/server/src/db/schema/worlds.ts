import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './columns.js';

/**
 * A VRChat world fed with role data. The id is the GUID worlds bake into their download URLs, so it never
 * changes; role lists keep the manager's picker order.
 */
export const worlds = pgTable(
  'worlds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    guildId: text('guild_id').notNull(),
    name: text('name').notNull(),
    locked: boolean('locked').notNull().default(true),
    compression: boolean('compression').notNull().default(false),
    jsonMode: boolean('json_mode').notNull().default(false),
    /** 'Github Updates Enabled': the world data is mirrored to the trusted (GitHub Pages) address. */
    enabled: boolean('enabled').notNull().default(false),
    includeDiscordData: boolean('include_discord_data').notNull().default(true),
    includeGroupData: boolean('include_group_data').notNull().default(false),
    customData: text('custom_data').notNull().default(''),
    discordEncodeRoles: text('discord_encode_roles').array().notNull().default([]),
    discordAlwaysEncodeRoles: text('discord_always_encode_roles').array().notNull().default([]),
    groupEncodeRoles: text('group_encode_roles').array().notNull().default([]),
    groupAlwaysEncodeRoles: text('group_always_encode_roles').array().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('worlds_guild_idx').on(t.guildId, t.createdAt)],
);

/** The last world data body served, so downloads are cheap and survive a platform outage (served stale). */
export const worldDataCache = pgTable('world_data_cache', {
  worldId: uuid('world_id')
    .primaryKey()
    .references(() => worlds.id, { onDelete: 'cascade' }),
  /** The encoded body as UTF-8 bytes: an LZW body holds NUL characters, which a text column refuses. */
  body: bytea('body').notNull(),
  /** The world's settings the body was built from; a change to them rebuilds at once. */
  settingsStamp: text('settings_stamp').notNull(),
  generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().defaultNow(),
});
