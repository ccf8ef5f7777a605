import { and, eq, gte, inArray, lt, sql, sum } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client.js';
import { worldRequestCounts, worlds } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { requireGuildPermission } from '../../access/index.js';

/** How often each process adds its counts to the database. */
export const WORLD_REQUESTS_FLUSH_MS = 60_000;
const KEEP_HOURS = 7 * 24;
const HOUR_MS = 3_600_000;

/**
 * Downloads of each world's data, counted in memory (a map increment per request: no log line, no I/O)
 * and added to `world_request_counts` once a minute, per hour.
 */
export class WorldRequestCounter {
  private counts = new Map<string, number>();

  count(worldId: string): void {
    this.counts.set(worldId, (this.counts.get(worldId) ?? 0) + 1);
  }

  /** Adds the counts so far to the database; answers the worlds requested since the last flush. */
  async flush(db: Db, log: FastifyBaseLogger): Promise<ReadonlySet<string>> {
    const counts = this.counts;
    this.counts = new Map();
    if (counts.size === 0) return new Set();
    const hour = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
    // Only worlds that still exist (a deleted one's counts have nowhere to go).
    const ids = [...counts.keys()];
    const existing = await db.select({ id: worlds.id }).from(worlds).where(inArray(worlds.id, ids));
    const rows = existing.map(({ id }) => ({ worldId: id, hour, requests: counts.get(id) ?? 0 }));
    if (rows.length) {
      await db
        .insert(worldRequestCounts)
        .values(rows)
        .onConflictDoUpdate({
          target: [worldRequestCounts.worldId, worldRequestCounts.hour],
          set: { requests: sql`${worldRequestCounts.requests} + excluded.requests` },
        });
    }
    await db
      .delete(worldRequestCounts)
      .where(lt(worldRequestCounts.hour, new Date(hour.getTime() - KEEP_HOURS * HOUR_MS)));
    let total = 0;
    for (const n of counts.values()) total += n;
    log.debug({ worlds: counts.size, requests: total }, 'World data: requests counted');
    return new Set(ids);
  }
}

/** The worlds downloaded within the last hour or so (the rebuild job keeps their bodies fresh). */
export async function recentlyRequestedWorldIds(db: Db): Promise<string[]> {
  const since = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - HOUR_MS);
  const rows = await db
    .selectDistinct({ worldId: worldRequestCounts.worldId })
    .from(worldRequestCounts)
    .where(gte(worldRequestCounts.hour, since));
  return rows.map((r) => r.worldId);
}

/** Downloads per world of the server over the last 24 hours (whole hours, flushed counts). */
export async function worldRequestsOfGuild(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ViewWorlds');
  const since = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 23 * HOUR_MS);
  const rows = await ctx.db
    .select({ worldId: worlds.id, requests: sum(worldRequestCounts.requests).mapWith(Number) })
    .from(worlds)
    .innerJoin(
      worldRequestCounts,
      and(eq(worldRequestCounts.worldId, worlds.id), gte(worldRequestCounts.hour, since)),
    )
    .where(eq(worlds.guildId, guildId))
    .groupBy(worlds.id);
  return {
    since: since.toISOString(),
    worlds: rows.map((r) => ({ worldId: r.worldId, last24h: r.requests })),
  };
}
