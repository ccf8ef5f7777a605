import type { Queryable } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';

export interface AuditEntry {
  action: string;
  actorId: string | null;
  targetId?: string | null;
  guildId?: string | null;
  details?: Record<string, unknown>;
}

/** Records a state-changing action. Every service that changes data calls this. */
export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actorId,
    targetId: entry.targetId ?? null,
    guildId: entry.guildId ?? null,
    details: entry.details ?? null,
  });
}
