import { doublePrecision, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Encrypted platform session blobs (e.g. the VRChat auth cookies), reused across restarts. */
export const platformSessions = pgTable('platform_sessions', {
  name: text('name').primaryKey(),
  dataEnc: text('data_enc').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A failed platform login's pause (wrong password, 2FA refused, too many sessions), shared by every process
 * on the database: none of them tries again before `until`. No row: the last login did not fail.
 */
export const platformLoginPauses = pgTable('platform_login_pauses', {
  name: text('name').primaryKey(),
  /** HMAC of the credentials that failed: other credentials (a corrected password) are not paused. */
  credentials: text('credentials').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
  failures: integer('failures').notNull(),
  lastError: text('last_error').notNull(),
});

/**
 * Token buckets shared by every process on the database (db/budget.ts): one row per key, e.g. one
 * VRChat bot account (`vrchat:<username>`) or one member's VRChat searches. A take is one atomic statement
 * on the database clock; `paused_until` (a VRChat 429) holds every process at once.
 */
export const platformBudgets = pgTable('platform_budgets', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  refilledAt: timestamp('refilled_at', { withTimezone: true }).notNull(),
  pausedUntil: timestamp('paused_until', { withTimezone: true }),
});
