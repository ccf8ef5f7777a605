import { and, asc, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { auditLog } from '../../../db/schema/index.js';
import { API_KEY_ACTOR, apiKeyNameOfActorSql } from '../../access/index.js';
import { usernameSql } from '../../identity/index.js';
import { auditDescriptions, namedSyncActions } from './describeAuditEntry.js';
import { LATEST_AUDIT_TIME, parseAuditDate } from './parseAuditDate.js';

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
  /** Where a page starts: the edge row of the page beside it (`auditCursor`); `page` is ignored with it. */
  cursor?: string;
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

/**
 * A user's name, an API key's name ('API key' once deleted), 'bot' for the bot, 'job <name>' for a job
 * (see actor.ts); null for an unknown actor.
 */
export const actorDisplaynameSql = sql<
  string | null
>`case when ${auditLog.actorId} like ${`${API_KEY_ACTOR}%`}
  then coalesce(${apiKeyNameOfActorSql(auditLog.actorId)}, 'API key')
  when ${auditLog.actorId} = 'bot' then 'bot'
  when ${auditLog.actorId} like 'job:%' then 'job ' || substr(${auditLog.actorId}, 5)
  else ${usernameSql(auditLog.actorId)} end`;

/** The same sentence as `describeAuditEntry`, in SQL, so sorting and searching match what is shown. */
const baseDescriptionSql = sql`case ${auditLog.action} ${sql.join(
  Object.entries(auditDescriptions).map(([action, text]) => sql`when ${action} then ${text}`),
  sql` `,
)} else ${auditLog.action} end`;
const detailSql = (key: string, label: string) =>
  sql`coalesce(${label}::text || nullif(${auditLog.details}->>${key}, ''), '')`;
const detail = (key: string) => sql`nullif(${auditLog.details}->>${key}, '')`;
/** ` (usr_…)` after the VRChat name (none without one), and ` · member …` for the Discord member an action on VRChat went through. */
const vrchatAccountSql = sql`coalesce(' (' || ${detail('vrcUserId')} || ')' || left(${detail('vrchatName')}, 0), '') || case when ${detail('vrcUserId')} is not null and ${detail('discordUserId')} is not null then coalesce(' · member ' || ${detail('targetName')}, '') else '' end`;
export const descriptionSql = sql<string>`(${baseDescriptionSql} || case when ${auditLog.action} in (${sql.join(
  namedSyncActions.map((a) => sql`${a}`),
  sql`, `,
)}) then ${detailSql('roleName', ' · role ')} || ${detailSql('vrchatName', ' · VRChat ')} || ${vrchatAccountSql} else '' end)`;

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
  const start = q.startDate ? parseAuditDate(q.startDate) : null;
  if (start) conditions.push(gte(auditLog.createdAt, new Date(start.time)));
  const end = q.endDate ? parseAuditDate(q.endDate) : null;
  if (end) {
    // A date without a time means the whole of that day; a time, the whole of that millisecond (PostgreSQL
    // keeps microseconds, the answers show milliseconds, so an entry's own time must still include it).
    const before = end.time + (end.dateOnly ? 86_400_000 : 1);
    // Past 9999-12-31 everything is before the end (and year 10000 is not a date PostgreSQL reads).
    if (before <= LATEST_AUDIT_TIME) conditions.push(lt(auditLog.createdAt, new Date(before)));
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

/**
 * The sort key of a row as text, for a cursor: the timestamp with all its microseconds (UTC), else the
 * sorted text itself (null stays null).
 */
export function sortKeySql(q: AuditLogQuery): SQL<string | null> {
  if (q.sortBy === 'CreatedAt')
    return sql<string>`to_char(${auditLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  return sql<string | null>`${sortColumns[q.sortBy]}`;
}

/** A page edge: the sort key and id of the row it is beside, and which way the page goes from it. */
export interface AuditCursor {
  sortBy: AuditLogQuery['sortBy'];
  sortOrder: AuditLogQuery['sortOrder'];
  /** `after`: the rows following this one in the chosen order (Next); `before`: those preceding it (Previous). */
  direction: 'after' | 'before';
  key: string | null;
  id: number;
}

export const encodeAuditCursor = (c: AuditCursor) =>
  Buffer.from(JSON.stringify([c.sortBy, c.sortOrder, c.direction, c.key, c.id])).toString('base64url');

/** The cursor's parts, or null when it is not one of ours (edited, cut off) or was made for another sort. */
export function decodeAuditCursor(text: string, q: AuditLogQuery): AuditCursor | null {
  try {
    const [sortBy, sortOrder, direction, key, id] = JSON.parse(
      Buffer.from(text, 'base64url').toString('utf8'),
    );
    if (sortBy !== q.sortBy || sortOrder !== q.sortOrder) return null;
    if (direction !== 'after' && direction !== 'before') return null;
    if (!(key === null || typeof key === 'string') || !Number.isSafeInteger(id)) return null;
    if (q.sortBy === 'CreatedAt' && (key === null || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(key)))
      return null;
    return { sortBy, sortOrder, direction, key, id };
  } catch {
    return null;
  }
}

/**
 * The rows beyond the cursor's row, in the order the page is read: ascending puts nulls last and descending
 * first (PostgreSQL's defaults, as `auditOrder`), so "after" in one order is "before" in the other. By
 * creation time (never null) it is one row comparison, which the (guild_id, created_at, id) index answers.
 */
export function auditKeyset(q: AuditLogQuery, c: AuditCursor): SQL {
  const ascending = (q.sortOrder === 'Ascending') === (c.direction === 'after');
  if (q.sortBy === 'CreatedAt') {
    const edge = sql`(${c.key}::timestamptz, ${c.id}::bigint)`;
    return ascending
      ? sql`(${auditLog.createdAt}, ${auditLog.id}) > ${edge}`
      : sql`(${auditLog.createdAt}, ${auditLog.id}) < ${edge}`;
  }
  const value = sortColumns[q.sortBy];
  if (ascending)
    return c.key === null
      ? sql`(${value} is null and ${auditLog.id} > ${c.id})`
      : sql`(${value} > ${c.key} or (${value} = ${c.key} and ${auditLog.id} > ${c.id}) or ${value} is null)`;
  return c.key === null
    ? sql`((${value} is null and ${auditLog.id} < ${c.id}) or ${value} is not null)`
    : sql`(${value} < ${c.key} or (${value} = ${c.key} and ${auditLog.id} < ${c.id}))`;
}

/** ORDER BY for a page read backwards from a cursor (Previous): the reverse of `auditOrder`, nulls included. */
export function auditOrderReversed(q: AuditLogQuery): SQL[] {
  return auditOrder({ ...q, sortOrder: q.sortOrder === 'Ascending' ? 'Descending' : 'Ascending' });
}
