import { type Actor, actorId } from '../../actor.js';
import type { Queryable } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';

export interface AuditEntry {
  action: string;
  /** Who acted (a user, an API key, the bot, a job); null for nobody (e.g. a failed anonymous attempt). */
  actor: Actor | null;
  targetId?: string | null;
  guildId?: string | null;
  details?: Record<string, unknown>;
}

/** Records a state-changing action. Every service that changes data calls this. */
export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actor ? actorId(entry.actor) : null,
    targetId: entry.targetId ?? null,
    guildId: entry.guildId ?? null,
    details: entry.details ?? null,
  });
}
