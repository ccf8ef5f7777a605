import type { Queryable } from '../db/client.js';
import { auditLog } from '../db/schema/index.js';
import { type Actor, actorId } from './actor.js';
import { insertAuditWithDiscordLog } from './discord-log-outbox.js';
import { logEventTypeOf } from './log-event-types.js';

export interface AuditEntry {
  action: string;
  /** Who acted (a user, an API key, the bot, a job); null for nobody (e.g. a failed anonymous attempt). */
  actor: Actor | null;
  targetId?: string | null;
  guildId?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Records a state-changing action. Every service that changes data calls this. When a server logs this kind
 * of event to Discord, the post waits in the outbox, written with the entry (delivered by a job).
 */
export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
  const row = {
    action: entry.action,
    actorId: entry.actor ? actorId(entry.actor) : null,
    targetId: entry.targetId ?? null,
    guildId: entry.guildId ?? null,
    details: entry.details ?? null,
  };
  const eventType = logEventTypeOf(row.action, row.details);
  if (!eventType) {
    await db.insert(auditLog).values(row);
    return;
  }
  const memberId = entry.actor?.kind === 'user' ? entry.actor.userId : null;
  await insertAuditWithDiscordLog(db, row, eventType, memberId);
}
