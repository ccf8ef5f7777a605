import { and, eq, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../../db/client.js';
import { guildMemberSync, guildMembers, guildMemberTotals, vrchatLinks } from '../../../db/schema/index.js';
import type { DiscordMemberRecord } from '../../../platforms/ports.js';

/**
 * Reads and writes of the member mirror (guild_members, guild_member_sync); this module owns the tables.
 * Every write carries the time Discord's answer was asked for (`seenAt`), and a row only changes for a
 * newer one: a gateway event that arrived while a fill was running is never overwritten by the fill's
 * older snapshot, whatever order the writes reach the database in.
 */

export type MemberRow = typeof guildMembers.$inferSelect;
export type SyncRow = typeof guildMemberSync.$inferSelect;
export type MirrorMode = SyncRow['mode'];

/** Rows per insert statement (one statement of unnest arrays, not one insert per member). */
const BATCH = 1000;

const textArray = (values: (string | null)[]) => sql`${sql.param(values)}::text[]`;

/**
 * Inserts or refreshes members (they are current members: `left_at` is cleared). Answers how many rows were
 * written. With `onlyChanged` (a fill) a row that already says the same is left as it is, `seen_at` too:
 * the fill remembers whom it confirmed instead (`deleteUnconfirmedExcept`). Gateway events always write,
 * so their newer `seen_at` keeps an older fill snapshot from overwriting them.
 */
export async function upsertMembers(
  db: Db,
  guildId: string,
  members: DiscordMemberRecord[],
  seenAt: Date,
  opts: { onlyChanged?: boolean } = {},
): Promise<number> {
  // One row per user per statement (ON CONFLICT cannot touch a row twice).
  const unique = [...new Map(members.map((m) => [m.userId, m])).values()];
  const changed = opts.onlyChanged
    ? sql`and (g.left_at is not null or (g.username, g.global_name, g.nickname, g.avatar, g.guild_avatar, g.bot,
          g.role_ids, g.joined_at) is distinct from (excluded.username, excluded.global_name, excluded.nickname,
          excluded.avatar, excluded.guild_avatar, excluded.bot, excluded.role_ids, excluded.joined_at))`
    : sql``;
  let written = 0;
  for (let i = 0; i < unique.length; i += BATCH) {
    const batch = unique.slice(i, i + BATCH);
    const res = await db.execute(sql`
      insert into guild_members as g
        (guild_id, user_id, username, global_name, nickname, avatar, guild_avatar, bot, role_ids,
         joined_at, left_at, seen_at)
      select ${guildId}, u.user_id, u.username, u.global_name, u.nickname, u.avatar, u.guild_avatar::boolean,
        u.bot::boolean, coalesce(string_to_array(nullif(u.role_ids, ''), ','), '{}'::text[]),
        u.joined_at::timestamptz, null, ${seenAt.toISOString()}::timestamptz
      from unnest(
        ${textArray(batch.map((m) => m.userId))}, ${textArray(batch.map((m) => m.username))},
        ${textArray(batch.map((m) => m.globalName))}, ${textArray(batch.map((m) => m.nickname))},
        ${textArray(batch.map((m) => m.avatar))}, ${textArray(batch.map((m) => (m.guildAvatar ? 't' : 'f')))},
        ${textArray(batch.map((m) => (m.bot ? 't' : 'f')))}, ${textArray(batch.map((m) => m.roleIds.join(',')))},
        ${textArray(batch.map((m) => m.joinedAt?.toISOString() ?? null))}
      ) as u(user_id, username, global_name, nickname, avatar, guild_avatar, bot, role_ids, joined_at)
      on conflict (guild_id, user_id) do update set
        username = excluded.username, global_name = excluded.global_name, nickname = excluded.nickname,
        avatar = excluded.avatar, guild_avatar = excluded.guild_avatar, bot = excluded.bot,
        role_ids = excluded.role_ids, joined_at = excluded.joined_at, left_at = null, seen_at = excluded.seen_at
      where g.seen_at <= excluded.seen_at ${changed}
      returning 1`);
    written += res.rows.length;
  }
  return written;
}

/** The member left (the row stays, marked, until the next complete fill deletes it). True if they were current. */
export async function markLeft(db: Db, guildId: string, userId: string, at: Date): Promise<boolean> {
  const updated = await db
    .update(guildMembers)
    .set({ leftAt: at, seenAt: at })
    .where(
      and(
        eq(guildMembers.guildId, guildId),
        eq(guildMembers.userId, userId),
        isNull(guildMembers.leftAt),
        sql`${guildMembers.seenAt} <= ${at.toISOString()}::timestamptz`,
      ),
    )
    .returning({ userId: guildMembers.userId });
  return updated.length > 0;
}

/** A role was deleted: nobody holds it any more. */
export async function removeRoleEverywhere(db: Db, guildId: string, roleId: string): Promise<void> {
  await db
    .update(guildMembers)
    .set({ roleIds: sql`array_remove(${guildMembers.roleIds}, ${roleId})` })
    .where(and(eq(guildMembers.guildId, guildId), sql`${roleId} = any(${guildMembers.roleIds})`));
}

/**
 * After a complete fill that wrote only changed rows: the rows it neither confirmed (`confirmed`) nor saw
 * written since it began (a gateway event during the fill) go, members marked as left among them. Answers
 * how many.
 */
export async function deleteUnconfirmedExcept(
  db: Db,
  guildId: string,
  before: Date,
  confirmed: ReadonlySet<string>,
): Promise<number> {
  const older = await db
    .select({ userId: guildMembers.userId, leftAt: guildMembers.leftAt })
    .from(guildMembers)
    .where(and(eq(guildMembers.guildId, guildId), lt(guildMembers.seenAt, before)));
  const gone = older.filter((r) => r.leftAt !== null || !confirmed.has(r.userId)).map((r) => r.userId);
  let deleted = 0;
  for (let i = 0; i < gone.length; i += BATCH) {
    const rows = await db
      .delete(guildMembers)
      .where(
        and(
          eq(guildMembers.guildId, guildId),
          inArray(guildMembers.userId, gone.slice(i, i + BATCH)),
          lt(guildMembers.seenAt, before),
        ),
      )
      .returning({ userId: guildMembers.userId });
    deleted += rows.length;
  }
  return deleted;
}

/**
 * The sync tells the member mirror (what the next sync observes) about the bot's own role change at once: without
 * the Server Members intent no member event ever does, and with it a retry may observe before the event
 * arrives. Either way the next run would give or take the same role again. The event, when it comes, agrees.
 */
export async function mirrorRoleChange(
  db: Queryable,
  guildId: string,
  userId: string,
  roleId: string,
  add: boolean,
) {
  const without = sql`array_remove(${guildMembers.roleIds}, ${roleId})`;
  await db
    .update(guildMembers)
    .set({ roleIds: add ? sql`array_append(${without}, ${roleId})` : without })
    .where(and(eq(guildMembers.guildId, guildId), eq(guildMembers.userId, userId)));
}

/** The bot left the server (or the server was deleted). */
export async function dropGuild(db: Db, guildId: string): Promise<void> {
  await db.delete(guildMembers).where(eq(guildMembers.guildId, guildId));
  await db.delete(guildMemberSync).where(eq(guildMemberSync.guildId, guildId));
  await db.delete(guildMemberTotals).where(eq(guildMemberTotals.guildId, guildId));
}

export async function getSync(db: Db, guildId: string): Promise<SyncRow | undefined> {
  const [row] = await db.select().from(guildMemberSync).where(eq(guildMemberSync.guildId, guildId));
  return row;
}

export async function saveSync(
  db: Db,
  guildId: string,
  values: { mode: MirrorMode; memberCount?: number; filledAt?: Date | null },
): Promise<void> {
  const now = new Date();
  await db
    .insert(guildMemberSync)
    .values({ guildId, memberCount: 0, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: guildMemberSync.guildId, set: { ...values, updatedAt: now } });
}

/** A join or a leave seen on the gateway moves Discord's count. */
export async function adjustMemberCount(db: Db, guildId: string, delta: number): Promise<void> {
  await db
    .update(guildMemberSync)
    .set({ memberCount: sql`greatest(${guildMemberSync.memberCount} + ${delta}, 0)`, updatedAt: new Date() })
    .where(eq(guildMemberSync.guildId, guildId));
}

/** The guild's sync state and the member's row (left or not); two reads side by side. */
export async function readMember(
  db: Db,
  guildId: string,
  userId: string,
): Promise<{ sync: SyncRow | undefined; member: MemberRow | undefined }> {
  const [sync, member] = await Promise.all([
    getSync(db, guildId),
    db
      .select()
      .from(guildMembers)
      .where(and(eq(guildMembers.guildId, guildId), eq(guildMembers.userId, userId)))
      .then((rows) => rows[0]),
  ]);
  return { sync, member };
}

/** Every current member the mirror holds for the guild. */
export async function currentMembers(db: Db, guildId: string): Promise<MemberRow[]> {
  return db
    .select()
    .from(guildMembers)
    .where(and(eq(guildMembers.guildId, guildId), isNull(guildMembers.leftAt)));
}

/** Current human (not bot) members holding any of `roleIds`. */
export async function currentMembersWithAnyRole(
  db: Db,
  guildId: string,
  roleIds: string[],
): Promise<MemberRow[]> {
  if (roleIds.length === 0) return [];
  return currentInIdOrder(
    db,
    guildId,
    eq(guildMembers.bot, false),
    sql`${guildMembers.roleIds} && ${textArray(roleIds)}`,
  );
}

/** Current members of the guild meeting `conditions`, in Discord's id order (shorter ids first). */
const currentInIdOrder = (db: Db, guildId: string, ...conditions: SQL[]) =>
  db
    .select()
    .from(guildMembers)
    .where(and(eq(guildMembers.guildId, guildId), isNull(guildMembers.leftAt), ...conditions))
    .orderBy(sql`length(${guildMembers.userId})`, guildMembers.userId);

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Discord's member search: a case-insensitive prefix of the username, global name or nickname. */
export async function prefixSearch(
  db: Db,
  guildId: string,
  query: string,
  limit: number,
): Promise<MemberRow[]> {
  const pattern = `${escapeLike(query.toLowerCase())}%`;
  return currentInIdOrder(
    db,
    guildId,
    sql`(lower(${guildMembers.username}) like ${pattern} or lower(${guildMembers.globalName}) like ${pattern}
          or lower(${guildMembers.nickname}) like ${pattern})`,
  ).limit(limit);
}

/** Current members with a VRChat link (ownership-verified only, if asked), with the link. */
export async function linkedMembers(db: Db, guildId: string, opts: { verifiedOnly?: boolean } = {}) {
  return db
    .select({ member: guildMembers, link: vrchatLinks })
    .from(guildMembers)
    .innerJoin(vrchatLinks, eq(vrchatLinks.discordUserId, guildMembers.userId))
    .where(
      and(
        eq(guildMembers.guildId, guildId),
        isNull(guildMembers.leftAt),
        opts.verifiedOnly ? eq(vrchatLinks.isVerified, true) : undefined,
      ),
    );
}

/**
 * Counts the guild's current members and their links again and stores the totals (a complete fill does, to set
 * right what two writes at the same moment may have missed). Answers the current members.
 */
export async function recountTotals(db: Db, guildId: string): Promise<number> {
  const res = await db.execute(sql`
    insert into ${guildMemberTotals} (guild_id, members, linked)
    select ${guildId}, count(*), count(l.discord_user_id)
      from ${guildMembers} m left join ${vrchatLinks} l on l.discord_user_id = m.user_id
     where m.guild_id = ${guildId} and m.left_at is null
    on conflict (guild_id) do update set members = excluded.members, linked = excluded.linked
    returning members`);
  return Number(res.rows[0]?.members ?? 0);
}

/**
 * How many current members the mirror holds, and how many of them have a VRChat link: the totals the
 * triggers keep (one row; counting a server of 100,000 members on every read is what they avoid).
 */
export async function memberTotals(db: Db, guildId: string): Promise<{ members: number; linked: number }> {
  const [row] = await db.select().from(guildMemberTotals).where(eq(guildMemberTotals.guildId, guildId));
  return { members: row?.members ?? 0, linked: row?.linked ?? 0 };
}

/**
 * Linked users known to be members of the guild: the rows the last fill, the gateway's events and single
 * lookups (a sign-in reads the user's servers) left in the mirror. What 'linked' mode re-reads per server,
 * rather than every link of the deployment.
 */
export async function knownLinkedUserIds(db: Db, guildId: string): Promise<string[]> {
  const rows = await db
    .select({ id: guildMembers.userId })
    .from(guildMembers)
    .innerJoin(vrchatLinks, eq(vrchatLinks.discordUserId, guildMembers.userId))
    .where(and(eq(guildMembers.guildId, guildId), isNull(guildMembers.leftAt)));
  return rows.map((r) => r.id);
}

/** Discord ids of everyone with a VRChat link (the members 'linked' mode keeps). */
export async function linkedUserIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: vrchatLinks.discordUserId }).from(vrchatLinks);
  return rows.map((r) => r.id);
}

/** The servers any of these users is a current member of, each once. */
export async function currentGuildIdsOf(db: Db, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ guildId: guildMembers.guildId })
    .from(guildMembers)
    .where(and(inArray(guildMembers.userId, userIds), isNull(guildMembers.leftAt)));
  return rows.map((r) => r.guildId);
}

/** A server's current members who are people (not bots), each with their link if they have one. */
export async function currentPeopleWithLinks(db: Db, guildId: string) {
  return db
    .select({ member: guildMembers, link: vrchatLinks })
    .from(guildMembers)
    .leftJoin(vrchatLinks, eq(vrchatLinks.discordUserId, guildMembers.userId))
    .where(and(eq(guildMembers.guildId, guildId), isNull(guildMembers.leftAt), eq(guildMembers.bot, false)));
}

/**
 * Which of `among` keep linked members only in their mirror (no Server Members intent: no member events, so a Discord
 * role change is seen only when a sync re-reads the linked members).
 */
export async function linkedOnlyGuildIds(db: Db, among: readonly string[]): Promise<Set<string>> {
  if (among.length === 0) return new Set();
  const rows = await db
    .select({ guildId: guildMemberSync.guildId })
    .from(guildMemberSync)
    .where(and(eq(guildMemberSync.mode, 'linked'), inArray(guildMemberSync.guildId, [...among])));
  return new Set(rows.map((r) => r.guildId));
}
