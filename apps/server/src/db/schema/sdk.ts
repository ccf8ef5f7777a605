import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Unity SDK editor-login requests: token stored hashed; approved by a signed-in user, redeemed once. */
export const sdkLoginRequests = pgTable('sdk_login_requests', {
  tokenHash: text('token_hash').primaryKey(),
  approvedBy: text('approved_by'),
  approvedAt: timestamp('approved_at', { withTimezone: true }),
  redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
