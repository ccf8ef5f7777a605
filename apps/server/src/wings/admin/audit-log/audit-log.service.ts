import { asc, count, eq } from 'drizzle-orm';
import { auditLog } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { requireGuildPermission } from '../../access/index.js';
import { type AuditLogQuery, actorDisplaynameSql, auditOrder, auditWhere } from './audit-log.query.js';
import { auditTargetNames } from './auditTargets.js';
import { auditEventLabel, describeAuditEntry } from './describeAuditEntry.js';

export const AUDIT_PAGE_SIZES = [25, 50, 100, 250, 1000] as const;

/** The server's own audit trail (Admin only: it names who did what), filtered, sorted and paged in SQL. */
export async function listAuditLog(ctx: AppContext, actor: Actor, guildId: string, q: AuditLogQuery) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const where = auditWhere(guildId, q);
  const [page, [total], types] = await Promise.all([
    ctx.db
      .select({
        id: auditLog.id,
        createdAt: auditLog.createdAt,
        actorId: auditLog.actorId,
        actorDisplayname: actorDisplaynameSql,
        action: auditLog.action,
        targetId: auditLog.targetId,
        details: auditLog.details,
      })
      .from(auditLog)
      .where(where)
      .orderBy(...auditOrder(q))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    ctx.db.select({ n: count() }).from(auditLog).where(where),
    ctx.db
      .selectDistinct({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.guildId, guildId))
      .orderBy(asc(auditLog.action)),
  ]);
  const targets = await auditTargetNames(
    ctx.db,
    guildId,
    guild.roles,
    page.map((row) => row.targetId),
  );
  return {
    auditLogs: page.map((row) => ({
      id: String(row.id),
      createdAt: new Date(row.createdAt).toISOString(),
      actorId: row.actorId,
      actorDisplayname: row.actorDisplayname,
      eventType: row.action,
      eventLabel: auditEventLabel(row.action),
      targetId: row.targetId,
      target: (row.targetId && targets.get(row.targetId)) || null,
      description: describeAuditEntry(row.action, row.details as Record<string, unknown> | null),
      data: row.details ?? null,
    })),
    totalCount: Number(total?.n ?? 0),
    eventTypes: types.map((t) => t.action),
    eventLabels: Object.fromEntries(types.map((t) => [t.action, auditEventLabel(t.action)])),
  };
}
