import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The GitHub Pages world mirror's state (one row per remote, keyed by the remote with any credentials
 * removed): /admin shows it, so a failing push is never lost silently. A success clears the error.
 */
export const worldMirrorStatus = pgTable('world_mirror_status', {
  remote: text('remote').primaryKey(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  /** The commit the last push made (null: the last runs had nothing to change). */
  lastCommit: text('last_commit'),
  lastCommitAt: timestamp('last_commit_at', { withTimezone: true }),
  /** Worlds in the mirror after the last successful run. */
  worlds: integer('worlds').notNull().default(0),
  /** Worlds whose data could not be built in the last run (their previous mirrored data stays). */
  worldsNotBuilt: integer('worlds_not_built').notNull().default(0),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
});
