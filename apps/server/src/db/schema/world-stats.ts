import { index, integer, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { worlds } from './worlds.js';

/**
 * Downloads of a world's data, per hour: each process counts in memory and adds its counts here once a
 * minute (the Worlds tab shows the last 24 hours). Rows older than a week are dropped by the flush.
 */
export const worldRequestCounts = pgTable(
  'world_request_counts',
  {
    worldId: uuid('world_id')
      .notNull()
      .references(() => worlds.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    requests: integer('requests').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.hour] }), index('world_request_counts_hour_idx').on(t.hour)],
);
