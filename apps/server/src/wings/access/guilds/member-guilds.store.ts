import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  guildMemberSync,
  guildMembers,
  guildSnapshotShards,
  guildSnapshots,
} from '../../../db/schema/index.js';
import type { DiscordGuildInfo } from '../../../platforms/ports.js';
import type { MemberRow } from '../members/member-mirror.store.js';

/** The mirror lists every member of the server (full mode, filled): a missing row means not a member. */
const complete = (guildId: ReturnType<typeof sql>) =>
  sql`exists (select 1 from ${guildMemberSync} y where y.guild_id = ${guildId} and y.mode = 'full'
      and y.filled_at is not null)`;

/**
 * The user's current memberships in servers the bot is in (with a snapshot) whose mirror is complete, each with
 * the server's details: one query, however many servers the bot is in.
 */
export async function completeMembershipsWithGuilds(
  db: Db,
  userId: string,
): Promise<{ member: MemberRow; guild: DiscordGuildInfo }[]> {
  const s = guildSnapshots;
  const rows = await db
    .select({
      member: guildMembers,
      guild: { id: s.guildId, name: s.name, iconUrl: s.iconUrl, ownerId: s.ownerId, roles: s.roles },
    })
    .from(guildMembers)
    .innerJoin(s, sql`${s.guildId} = ${guildMembers.guildId}`)
    .where(
      sql`${guildMembers.userId} = ${userId} and ${guildMembers.leftAt} is null and ${complete(sql`${guildMembers.guildId}`)}`,
    );
  return rows;
}

/**
 * What the snapshots say about the bot's servers as a whole: whether every shard's servers are written (the
 * latest shard count's shards all loaded; before that this process's own gateway may know servers the table does
 * not), and the servers with a snapshot whose mirror is not complete. One row.
 */
export async function snapshotCoverage(db: Db): Promise<{ allWritten: boolean; incomplete: string[] }> {
  const res = await db.execute<{ all_written: boolean | null; incomplete: string[] | null }>(sql`
    with latest as (select shard_count from ${guildSnapshotShards} order by loaded_at desc limit 1)
    select (select count(*) = max(latest.shard_count) from ${guildSnapshotShards} g join latest using (shard_count))
             as all_written,
           (select array_agg(s.guild_id) from ${guildSnapshots} s where not ${complete(sql`s.guild_id`)})
             as incomplete`);
  const row = res.rows[0];
  return { allWritten: row?.all_written === true, incomplete: row?.incomplete ?? [] };
}

/**
 * Of these servers (the bot's, as the port lists them before every shard is written), those the user's complete
 * memberships cannot answer for: the mirror is not complete, or the server has no snapshot yet.
 */
export async function guildIdsToAsk(db: Db, guildIds: string[]): Promise<string[]> {
  if (guildIds.length === 0) return [];
  const rows = await db.execute<{ id: string }>(sql`
    select ids.id from unnest(${sql.param(guildIds)}::text[]) as ids(id)
     where not ${complete(sql`ids.id`)}
        or not exists (select 1 from ${guildSnapshots} s where s.guild_id = ids.id)`);
  return rows.rows.map((r) => r.id);
}
