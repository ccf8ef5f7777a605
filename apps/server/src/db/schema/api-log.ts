import { bigserial, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per /api/v1 call, for the server's Admins (Management tab, 'API log'). Written after the answer
 * is sent; the retention task deletes rows older than 30 days (the privacy policy's month).
 * `guildId` is the server whose log shows the call: an API key's own server (also when it called another
 * one), else the server in the address. `apiKeyId` or `userId` names the caller.
 */
export const apiLog = pgTable(
  'api_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guildId: text('guild_id').notNull(),
    apiKeyId: uuid('api_key_id'),
    userId: text('user_id'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The Admin's newest-first pages (keyset on id within a server).
    index('api_log_guild_idx').on(t.guildId, t.id),
    // The retention purge.
    index('api_log_created_idx').on(t.createdAt),
  ],
);
