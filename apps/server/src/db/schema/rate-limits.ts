import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Request counts per caller and fixed window, shared by every server process (http/rate-limit.ts). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});
