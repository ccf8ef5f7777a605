import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Per-key waits shared by every server process (e.g. one VRChat guest search per host every 5 s). */
export const cooldowns = pgTable('cooldowns', {
  key: text('key').primaryKey(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});
