import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Encrypted platform session blobs (e.g. the VRChat auth cookies), reused across restarts. */
export const platformSessions = pgTable('platform_sessions', {
  name: text('name').primaryKey(),
  dataEnc: text('data_enc').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
