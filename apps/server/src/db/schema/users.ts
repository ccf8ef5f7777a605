import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** A person who signed in with Discord; the Discord id is the key. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  username: text('username').notNull(),
  globalName: text('global_name'),
  avatar: text('avatar'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Discord OAuth tokens of a user, encrypted at rest (needed for role connections and guild lists). */
export const discordTokens = pgTable('discord_tokens', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  accessTokenEnc: text('access_token_enc').notNull(),
  refreshTokenEnc: text('refresh_token_enc').notNull(),
  scope: text('scope').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Browser sessions and SDK access tokens; only the SHA-256 of the secret is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['web', 'sdk'] })
      .notNull()
      .default('web'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** One-time sign-in tokens the bot's /login command hands out (stored hashed, 5 minutes, single use). */
export const loginTokens = pgTable('login_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: text('user_id').notNull(),
  username: text('username').notNull(),
  avatar: text('avatar'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
