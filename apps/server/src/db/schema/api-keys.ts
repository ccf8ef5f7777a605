import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A server's API key: acts in that one server with its own permissions; only the SHA-256 of the token is kept. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    guildId: text('guild_id').notNull(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    permissions: text('permissions').array().notNull(),
    createdBy: text('created_by').notNull(),
    createdOn: timestamp('created_on', { withTimezone: true }).notNull().defaultNow(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_guild_idx').on(t.guildId, t.createdOn)],
);
