import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { guildSnapshotShards, guildSnapshots } from '../../../db/schema/index.js';
import type { CachedGuildState } from '../../../platforms/discord/guild-cache.js';
import type { DiscordGuildInfo } from '../../../platforms/ports.js';

/**
 * A server as the gateway holder last saw it: what API processes answer server reads with (the bot's own
 * membership is null when the gateway did not send it).
 */
export type GuildSnapshot = CachedGuildState;

/** Discord's shard of a server (its id's timestamp bits modulo the shard count). */
export const shardOfGuild = (guildId: string, shardCount: number): number =>
  Number((BigInt(guildId) >> 22n) % BigInt(Math.max(1, shardCount)));

/**
 * Writes one server's snapshot; a row that already says the same is left alone (no new row version), so the
 * same event twice, or a refresh after a reconnect, costs a read of the row and nothing else. Answers whether
 * the row changed.
 */
export async function writeGuildSnapshot(db: Db, s: GuildSnapshot): Promise<boolean> {
  const values = {
    guildId: s.id,
    name: s.name,
    iconUrl: s.iconUrl,
    ownerId: s.ownerId,
    roles: s.roles,
    botMember: s.botMember,
    channels: s.channels,
    updatedAt: new Date(),
  };
  const t = guildSnapshots;
  const written = await db
    .insert(t)
    .values(values)
    .onConflictDoUpdate({
      target: t.guildId,
      set: {
        name: sql`excluded.name`,
        iconUrl: sql`excluded.icon_url`,
        ownerId: sql`excluded.owner_id`,
        roles: sql`excluded.roles`,
        botMember: sql`excluded.bot_member`,
        channels: sql`excluded.channels`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`(${t.name}, ${t.iconUrl}, ${t.ownerId}, ${t.roles}, ${t.botMember}, ${t.channels})
        is distinct from (excluded.name, excluded.icon_url, excluded.owner_id, excluded.roles, excluded.bot_member,
        excluded.channels)`,
    })
    .returning({ guildId: t.guildId });
  return written.length > 0;
}

/** GUILD_DELETE (the bot left, or the server is gone). */
export async function dropGuildSnapshot(db: Db, guildId: string): Promise<void> {
  await db.delete(guildSnapshots).where(eq(guildSnapshots.guildId, guildId));
}

/**
 * After a shard's READY wrote every server it has: the shard's servers without a snapshot now are ones the bot
 * left while no process was connected, so their rows go; then the shard is marked loaded.
 */
export async function shardLoaded(
  db: Db,
  shard: { id: number; count: number },
  guildIds: string[],
): Promise<void> {
  const rows = await db
    .select({ guildId: guildSnapshots.guildId })
    .from(guildSnapshots)
    .where(guildIds.length ? notInArray(guildSnapshots.guildId, guildIds) : undefined);
  const gone = rows.map((r) => r.guildId).filter((id) => shardOfGuild(id, shard.count) === shard.id);
  if (gone.length) await db.delete(guildSnapshots).where(inArray(guildSnapshots.guildId, gone));
  await db
    .insert(guildSnapshotShards)
    .values({ shardId: shard.id, shardCount: shard.count, loadedAt: new Date() })
    .onConflictDoUpdate({
      target: [guildSnapshotShards.shardCount, guildSnapshotShards.shardId],
      set: { loadedAt: sql`excluded.loaded_at` },
    });
}

const toSnapshot = (r: typeof guildSnapshots.$inferSelect): GuildSnapshot => ({
  id: r.guildId,
  name: r.name,
  iconUrl: r.iconUrl,
  ownerId: r.ownerId,
  roles: r.roles,
  botMember: r.botMember ?? null,
  channels: r.channels ?? null,
});

/** The server's snapshot, or undefined when there is none. */
export async function readGuildSnapshot(db: Db, guildId: string): Promise<GuildSnapshot | undefined> {
  const [row] = await db.select().from(guildSnapshots).where(eq(guildSnapshots.guildId, guildId));
  return row ? toSnapshot(row) : undefined;
}

/**
 * These servers' details as the port answers them (those that have a snapshot): without the bot's member and
 * the channels, which a list of servers does not show.
 */
export async function readGuildInfos(db: Db, guildIds: string[]): Promise<DiscordGuildInfo[]> {
  if (guildIds.length === 0) return [];
  const t = guildSnapshots;
  const rows = await db
    .select({ id: t.guildId, name: t.name, iconUrl: t.iconUrl, ownerId: t.ownerId, roles: t.roles })
    .from(t)
    .where(inArray(t.guildId, guildIds));
  return rows;
}

/**
 * Every server with a snapshot (the bot's servers, across all shards). One row of an array, not a row per
 * server: a member of 50 servers' `/api/guilds` asks for the 1,100 ids of a big bot on every load.
 */
export async function snapshotGuildIds(db: Db): Promise<string[]> {
  const [row] = await db
    .select({ ids: sql<string[] | null>`array_agg(${guildSnapshots.guildId})` })
    .from(guildSnapshots);
  return row?.ids ?? [];
}

/**
 * Whether the shard holding this server has been loaded by some gateway holder (with the latest shard count
 * written): then a server without a snapshot is one the bot is not in.
 */
export async function guildShardLoaded(db: Db, guildId: string): Promise<boolean> {
  const [latest] = await db
    .select({ shardCount: guildSnapshotShards.shardCount })
    .from(guildSnapshotShards)
    .orderBy(desc(guildSnapshotShards.loadedAt))
    .limit(1);
  if (!latest) return false;
  const [row] = await db
    .select({ shardId: guildSnapshotShards.shardId })
    .from(guildSnapshotShards)
    .where(
      and(
        eq(guildSnapshotShards.shardCount, latest.shardCount),
        eq(guildSnapshotShards.shardId, shardOfGuild(guildId, latest.shardCount)),
      ),
    );
  return row !== undefined;
}
