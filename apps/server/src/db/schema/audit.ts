import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Every state-changing action: who did what to what, and when. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guildId: text('guild_id'),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The Audit Log's pages walk (created_at, id) within a server (keyset paging).
    index('audit_guild_idx').on(t.guildId, t.createdAt, t.id),
    index('audit_actor_idx').on(t.actorId),
    // Retention deletes the oldest rows of every server in batches (AUDIT_LOG_RETENTION_DAYS).
    index('audit_created_idx').on(t.createdAt),
  ],
);
