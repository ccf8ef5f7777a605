import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Per-server permissions granted to a Discord user by a server admin (Discord admins hold Admin implicitly). */
export const guildPermissions = pgTable(
  'guild_permissions',
  {
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    permissions: text('permissions').array().notNull(),
    grantedBy: text('granted_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.userId] })],
);
