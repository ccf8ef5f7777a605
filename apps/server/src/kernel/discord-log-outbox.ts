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
 * of event. An entry of a server is that server's. An entry of no server done by a member (linking or
 * verifying their account) is written once for each server the member is in, as that server's entry, so
 * it shows in each server's Audit Log as well as in its log channel; a member in no server gets one entry
 * of no server. One statement, so it is atomic inside a transaction or out of one, and costs the same
 * single round trip as the plain insert.
 */
export async function insertAuditWithDiscordLog(
  db: Queryable,
  row: AuditRowValues,
  eventType: LogEventType,
  /** For entries of no server: whose servers they belong to (the member acting). */
  memberId: string | null,
): Promise<void> {
  const details = row.details === null ? null : JSON.stringify(row.details);
  const servers =
    row.guildId === null && memberId !== null
      ? sql`select m.guild_id from guild_members m
            where m.user_id = ${memberId} and m.left_at is null and m.bot = false`
      : sql`select ${row.guildId}::text as guild_id where false`;
  const res = await db.execute(sql`
    with servers as (${servers}),
    owners as (
      select guild_id from servers
      union all select ${row.guildId}::text where not exists (select 1 from servers)
    ),
    entries as (
      insert into audit_log (guild_id, actor_id, action, target_id, details)
      select o.guild_id, ${row.actorId}, ${row.action}, ${row.targetId}, ${details}::jsonb from owners o
      returning id, guild_id
    )
    insert into discord_log_outbox (guild_id, channel_id, audit_id, event_type)
    select c.guild_id, c.channel_id, e.id, ${eventType}
    from entries e join discord_log_config c on c.guild_id = e.guild_id
    where c.channel_id is not null and ${eventType} = any(c.event_types)`);
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
