import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import type { LogEventType } from './log-event-types.js';

export interface AuditRowValues {
  action: string;
  actorId: string | null;
  targetId: string | null;
  guildId: string | null;
  details: Record<string, unknown> | null;
}

/**
 * Writes an audit entry and, in the same statement, one outbox row per server whose logging wants this kind
 * of event: the server's own entry, or for entries of no server (a member linking their account) every
 * server the member is in. One statement, so it is atomic inside a transaction or out of one, and costs
 * the same single round trip as the plain insert.
 */
export async function insertAuditWithDiscordLog(
  db: Queryable,
  row: AuditRowValues,
  eventType: LogEventType,
  /** For entries of no server: whose servers to post in (the member acting). */
  memberId: string | null,
): Promise<void> {
  const details = row.details === null ? null : JSON.stringify(row.details);
  const servers =
    row.guildId !== null
      ? sql`c.guild_id = ${row.guildId}`
      : memberId !== null
        ? sql`c.guild_id in (select m.guild_id from guild_members m
            where m.user_id = ${memberId} and m.left_at is null and m.bot = false)`
        : sql`false`;
  const res = await db.execute(sql`
    with entry as (
      insert into audit_log (guild_id, actor_id, action, target_id, details)
      values (${row.guildId}, ${row.actorId}, ${row.action}, ${row.targetId}, ${details}::jsonb)
      returning id
    )
    insert into discord_log_outbox (guild_id, channel_id, audit_id, event_type)
    select c.guild_id, c.channel_id, entry.id, ${eventType}
    from entry cross join discord_log_config c
    where c.channel_id is not null and ${eventType} = any(c.event_types) and ${servers}`);
  // node-postgres says rowCount, PGlite affectedRows.
  const written = res as unknown as { rowCount?: number | null; affectedRows?: number };
  if ((written.rowCount ?? written.affectedRows ?? 0) > 0) for (const listener of listeners) listener();
}

const listeners = new Set<() => void>();

/**
 * Calls `listener` whenever this process writes a post to the outbox (maybe inside a transaction not yet
 * committed). Answers the function that stops it.
 */
export function onDiscordLogQueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
