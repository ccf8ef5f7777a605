import { bigint, bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * 'Logging to Discord' of one server: the text channel the bot posts to and which kinds of events it posts.
 * Off while `channelId` is null or `eventTypes` is empty. `problem` is what the last delivery met when the
 * channel was gone or closed to the bot ('channelGone' | 'cannotPost'), shown in the dialog until saved again.
 */
export const discordLogConfig = pgTable('discord_log_config', {
  guildId: text('guild_id').primaryKey(),
  channelId: text('channel_id'),
  eventTypes: text('event_types').array().notNull().default([]),
  problem: text('problem'),
  problemAt: timestamp('problem_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Posts waiting for the delivery job, written in the same statement as their audit entry (so a rolled-back
 * change posts nothing). A row is deleted once posted or dropped; `nextAttemptAt` spaces out retries.
 */
export const discordLogOutbox = pgTable(
  'discord_log_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guildId: text('guild_id').notNull(),
    channelId: text('channel_id').notNull(),
    auditId: bigint('audit_id', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('discord_log_outbox_due_idx').on(t.nextAttemptAt)],
);
