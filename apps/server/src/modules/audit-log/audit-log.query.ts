import { and, asc, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { apiKeys, auditLog, users } from '../../db/schema/index.js';
import { API_KEY_ACTOR } from '../api-keys/api-key-actor.js';
import { auditDescriptions } from './describeAuditEntry.js';

export const auditSortFields = [
  'CreatedAt',
  'EventType',
  'ActorDisplayname',
  'TargetId',
  'Description',
] as const;
export const auditSortOrders = ['Ascending', 'Descending'] as const;

export interface AuditLogQuery {
  page: number;
  pageSize: number;
  eventTypes?: string[];
  actorIds?: string[];
  targetIds?: string[];
  actorNames?: string[];
  startDate?: string;
  endDate?: string;
  sortBy: (typeof auditSortFields)[number];
  sortOrder: (typeof auditSortOrders)[number];
  fullTextSearch?: string;
}

/** A user's name, or an API key's name ('API key' once deleted); null for an unknown actor. */
export const actorDisplaynameSql = sql<
  string | null
>`case when ${auditLog.actorId} like ${`${API_KEY_ACTOR}%`}
  then coalesce(${apiKeys.name}, 'API key') else ${users.username} end`;

/** The same sentence as `describeAuditEntry`, in SQL, so sorting and searching match what is shown. */
export const descriptionSql = sql<string>`case ${auditLog.action} ${sql.join(
  Object.entries(auditDescriptions).map(([action, text]) => sql`when ${action} then ${text}`),
  sql` `,
)} else ${auditLog.action} end`;

const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
const literal = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The WHERE clause: this server's rows, narrowed by every filter given. */
export function auditWhere(guildId: string, q: AuditLogQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(auditLog.guildId, guildId)];
  if (q.eventTypes?.length) conditions.push(inArray(auditLog.action, q.eventTypes));
  if (q.actorIds?.length) conditions.push(inArray(auditLog.actorId, q.actorIds));
  if (q.targetIds?.length) conditions.push(inArray(auditLog.targetId, q.targetIds));
  if (q.actorNames?.length) {
    const names = q.actorNames.map((n) => n.toLowerCase());
    conditions.push(
      sql`lower(${actorDisplaynameSql}) in (${sql.join(
        names.map((n) => sql`${n}`),
        sql`, `,
      )})`,
    );
  }
  if (q.startDate) conditions.push(gte(auditLog.createdAt, new Date(q.startDate)));
  if (q.endDate) {
    // A date without a time means the whole of that day; a time, the whole of that millisecond (PostgreSQL
    // keeps microseconds, the answers show milliseconds, so an entry's own time must still include it).
    const end = Date.parse(q.endDate) + (dateOnly.test(q.endDate) ? 86_400_000 : 1);
    conditions.push(lt(auditLog.createdAt, new Date(end)));
  }
  const text = q.fullTextSearch?.trim();
  if (text) {
    conditions.push(
      or(
        ilike(descriptionSql, literal(text)),
        ilike(sql`coalesce(${auditLog.details}::text, '')`, literal(text)),
      ),
    );
  }
  return and(...conditions);
}

const sortColumns = {
  CreatedAt: auditLog.createdAt,
  EventType: auditLog.action,
  ActorDisplayname: actorDisplaynameSql,
  TargetId: auditLog.targetId,
  Description: descriptionSql,
} as const;

/** ORDER BY the chosen field, then by id in the same direction so pages never overlap. */
export function auditOrder(q: AuditLogQuery): SQL[] {
  const dir = q.sortOrder === 'Ascending' ? asc : desc;
  return [dir(sortColumns[q.sortBy]), dir(auditLog.id)];
}
