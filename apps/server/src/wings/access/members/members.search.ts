import { and, count, eq, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { vrchatLinks as l, guildMembers as m } from '../../../db/schema/index.js';
import { escapeLike, type MemberRow } from './member-mirror.store.js';

export const memberSearchFields = ['DiscordId', 'DiscordName', 'VrcId', 'VrcName'] as const;
export type MemberSearchField = (typeof memberSearchFields)[number];

/** The Members tab's filters: everyone, members with a VRChat link, without one, linked but not verified. */
export const memberFilters = ['all', 'linked', 'unlinked', 'unverified'] as const;
export type MemberFilter = (typeof memberFilters)[number];

/** The condition a filter adds on the joined links table (unlinked: the left join found no link). */
function filtering(filter: MemberFilter): SQL | undefined {
  if (filter === 'unlinked') return isNull(l.discordUserId);
  if (filter === 'unverified') return eq(l.isVerified, false);
  return undefined;
}

/**
 * Shorter name searches match the start of a name (btree prefix indexes); longer ones anywhere (trigrams).
 * Both kinds of index start with the server.
 */
export const INFIX_MIN_LENGTH = 3;

const SNOWFLAKE = /^\d{17,20}$/;

/** The condition for one search field; the text is taken literally (`%`, `_` and `\` included). */
function matching(field: MemberSearchField, search: string): SQL | undefined {
  if (!search) return undefined;
  if (field === 'DiscordId')
    // A whole id is looked up by key; part of one matches anywhere in the id.
    return SNOWFLAKE.test(search) ? eq(m.userId, search) : sql`strpos(${m.userId}, ${search}) > 0`;
  const anywhere = `%${escapeLike(search)}%`;
  if (field === 'VrcId') return ilike(l.vrcUserId, anywhere);
  if (field === 'VrcName') return ilike(l.vrchatName, anywhere);
  const text = escapeLike(search.toLowerCase());
  const pattern = search.length < INFIX_MIN_LENGTH ? `${text}%` : `%${text}%`;
  // Each name column has its own index; the planner ORs their bitmaps.
  return sql`(lower(${m.username}) like ${pattern} or lower(${m.globalName}) like ${pattern}
    or lower(${m.nickname}) like ${pattern})`;
}

export interface MemberSearch {
  field: MemberSearchField;
  search: string;
  page: number;
  pageSize: number;
  linkedOnly: boolean;
  filter?: MemberFilter;
  knownTotal?: number;
}

/** What a search reads: its WHERE clause, and whether the links table is joined (inner, or outer for 'unlinked'). */
function searchShape(guildId: string, q: MemberSearch) {
  const filter = q.filter ?? 'all';
  const condition = and(matching(q.field, q.search), filtering(filter));
  const where = and(eq(m.guildId, guildId), isNull(m.leftAt), condition);
  const join =
    q.linkedOnly ||
    filter === 'linked' ||
    filter === 'unverified' ||
    ((q.field === 'VrcId' || q.field === 'VrcName') && q.search !== '');
  // Unlinked members are the rows the links table has no partner for.
  const outer = filter === 'unlinked' && !join;
  return { condition, where, join, outer };
}

const on = eq(l.discordUserId, m.userId);

/** The page of a search or filter: the matches in order, each with the total as a window count. */
export function matchesPage(db: Db, guildId: string, q: MemberSearch) {
  const { where, join, outer } = searchShape(guildId, q);
  const query = db.select({ member: m, total: sql<number>`count(*) over ()` }).from(m);
  return (join ? query.innerJoin(l, on) : outer ? query.leftJoin(l, on) : query)
    .where(where)
    .orderBy(sql`lower(${m.username}) collate "C"`, m.userId)
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
}

/**
 * The Members tab's query over the member mirror: matching, counting, ordering (lowercased username in
 * byte order, then id) and paging in SQL; the page's links are read by id afterwards, so the links table
 * is joined only to filter by it (`linkedOnly`, the 'linked' mode, keeps members with a link).
 * - A search: the name indexes' bitmaps, then one sort of the matches with the total as a window count.
 *   Every name index has the server as a key (the btree prefix ones first; the GIN trigram ones `guild_id`
 *   beside the trigrams, btree_gin), so an infix search keeps only this server's entries inside the index.
 *   The order is spelled `collate "C"` so the planner does not walk the whole prefix index in order
 *   instead (it would, hoping to meet 25 matches early, and read most of a big server).
 * - No search: the prefix index walked in order (`using ~<~`, the same byte order) to the page; the
 *   total is `knownTotal` (the mirror's maintained member count) when given, else counted.
 */
export async function searchMirror(db: Db, guildId: string, q: MemberSearch) {
  const { condition, where, join, outer } = searchShape(guildId, q);
  const offset = (q.page - 1) * q.pageSize;

  let members: MemberRow[];
  let total: number;
  if (!condition && !join) {
    const [page, counted] = await Promise.all([
      db
        .select()
        .from(m)
        .where(where)
        .orderBy(sql`lower(${m.username}) using ~<~`, m.userId)
        .limit(q.pageSize)
        .offset(offset),
      q.knownTotal ??
        db
          .select({ n: count() })
          .from(m)
          .where(where)
          .then((r) => Number(r[0]?.n ?? 0)),
    ]);
    members = page;
    total = counted;
  } else {
    const rows = await matchesPage(db, guildId, q);
    members = rows.map((r) => r.member);
    // Past the last page no row carries the count: count apart.
    total = rows.length
      ? Number(rows[0]?.total)
      : offset === 0
        ? 0
        : Number(
            (
              await (join
                ? db.select({ n: count() }).from(m).innerJoin(l, on)
                : outer
                  ? db.select({ n: count() }).from(m).leftJoin(l, on)
                  : db.select({ n: count() }).from(m)
              ).where(where)
            )[0]?.n ?? 0,
          );
  }
  const ids = members.map((r) => r.userId);
  const links = ids.length ? await db.select().from(l).where(inArray(l.discordUserId, ids)) : [];
  const linkOf = new Map(links.map((link) => [link.discordUserId, link]));
  return { total, rows: members.map((member) => ({ member, link: linkOf.get(member.userId) ?? null })) };
}
