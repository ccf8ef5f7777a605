import { and, asc, count, eq } from 'drizzle-orm';
import { auditLog } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid } from '../../../kernel/errors.js';
import { requireGuildPermission } from '../../access/index.js';
import {
  type AuditLogQuery,
  actorDisplaynameSql,
  auditKeyset,
  auditOrder,
  auditOrderReversed,
  auditWhere,
  decodeAuditCursor,
  encodeAuditCursor,
  sortKeySql,
} from './audit-log.query.js';
import { auditTargetNames } from './auditTargets.js';
import { auditEventLabel, describeAuditEntry } from './describeAuditEntry.js';

export const AUDIT_PAGE_SIZES = [25, 50, 100, 250, 1000] as const;

/** The server's own audit trail (Admin only: it names who did what), filtered, sorted and paged in SQL. */
export const AUDIT_CURSOR_INVALID =
  'This page of the audit log is out of date or not valid. Open the first page again.';

export async function listAuditLog(ctx: AppContext, actor: Actor, guildId: string, q: AuditLogQuery) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const cursor = q.cursor === undefined ? null : decodeAuditCursor(q.cursor, q);
  if (q.cursor !== undefined && !cursor) throw invalid(AUDIT_CURSOR_INVALID);
  const where = auditWhere(guildId, q);
  const backwards = cursor?.direction === 'before';
  const columns = {
    id: auditLog.id,
    createdAt: auditLog.createdAt,
    actorId: auditLog.actorId,
    actorDisplayname: actorDisplaynameSql,
    action: auditLog.action,
    targetId: auditLog.targetId,
    details: auditLog.details,
    sortKey: sortKeySql(q),
  };
  // One row more than the page says whether another page follows (or, read backwards, precedes).
  const read = cursor
    ? ctx.db
        .select(columns)
        .from(auditLog)
        .where(and(where, auditKeyset(q, cursor)))
        .orderBy(...(backwards ? auditOrderReversed(q) : auditOrder(q)))
        .limit(q.pageSize + 1)
    : // Without a cursor, the page number (kept for links and scripts that count pages).
      ctx.db
        .select(columns)
        .from(auditLog)
        .where(where)
        .orderBy(...auditOrder(q))
        .limit(q.pageSize + 1)
        .offset((q.page - 1) * q.pageSize);
  const [rows, [total], types] = await Promise.all([
    read,
    ctx.db.select({ n: count() }).from(auditLog).where(where),
    ctx.db
      .selectDistinct({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.guildId, guildId))
      .orderBy(asc(auditLog.action)),
  ]);
  const more = rows.length > q.pageSize;
  const page = rows.slice(0, q.pageSize);
  if (backwards) page.reverse();
  const edge = (row: (typeof page)[number] | undefined, direction: 'after' | 'before') =>
    row
      ? encodeAuditCursor({
          sortBy: q.sortBy,
          sortOrder: q.sortOrder,
          direction,
          key: row.sortKey,
          id: row.id,
        })
      : null;
  const hasNext = backwards ? true : more;
  const hasPrevious = backwards ? more : cursor !== null || q.page > 1;
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
    nextCursor: hasNext ? edge(page.at(-1), 'after') : null,
    previousCursor: hasPrevious ? edge(page[0], 'before') : null,
    eventTypes: types.map((t) => t.action),
    eventLabels: Object.fromEntries(types.map((t) => [t.action, auditEventLabel(t.action)])),
  };
}
