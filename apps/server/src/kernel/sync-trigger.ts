import type { AppContext } from './context.js';
import { syncGuildJob } from './job-catalog.js';

/** Why a server's sync was asked for (kept in the job's payload and in the logs). */
export type SyncReason =
  | 'link'
  | 'member'
  | 'departure'
  | 'access'
  | 'roles'
  | 'mappings'
  | 'settings'
  | 'group'
  | 'manual'
  | 'schedule'
  | 'held';

/**
 * A server's place among waiting syncs by how long its last sync took (a measure of its size): quick ones
 * first, so a small community's change is not queued behind hours of big servers' syncs. Waiting ages a job
 * one point a minute (jobs/boss-sql.ts), so a big server's sync is passed over for at most 30 minutes.
 */
export function syncPriority(lastDurationMs: number | null): number {
  if (lastDurationMs === null) return 30; // never synced: measured once, treated as small
  if (lastDurationMs < 15_000) return 30;
  if (lastDurationMs < 60_000) return 20;
  if (lastDurationMs < 5 * 60_000) return 10;
  return 0;
}

/**
 * The last sync's length from the sync's own record (guild_sync_state, the group-sync wing's; read here by
 * SQL because the kernel imports no wing), or null when unknown.
 */
export async function lastSyncDurationMs(ctx: AppContext, guildId: string): Promise<number | null> {
  const { rows } = await ctx.database.executeSql(
    `select (last_result->>'durationMs')::float8 as ms from guild_sync_state where guild_id = $1`,
    [guildId],
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}

/**
 * What a sync asked for by a change (a member, a role, a mapping, a link, Sync now) adds to its priority: it goes
 * before the scheduled pass's waiting syncs, which only re-check servers, so a small community's change is not
 * queued behind a whole pass (the scale bench measured minutes). A scheduled sync still ages past it after an hour.
 */
export const CHANGE_PRIORITY = 60;

/**
 * Asks for a sync of one server soon. Requests within a few seconds collapse into one job, so a burst of
 * role changes costs one sync. Never throws: a server without a job queue (export, some tests) syncs at the
 * next scheduled run instead.
 */
export async function requestGuildSync(ctx: AppContext, guildId: string, reason: SyncReason): Promise<void> {
  let priority = 0;
  let id: string | null;
  try {
    const job = await syncJobFor(ctx, guildId, reason);
    priority = job.priority;
    id = await ctx.jobs.send(
      syncGuildJob,
      { guildId, reason, ...(job.long ? { long: true } : {}) },
      { singletonKey: guildId, startAfterSeconds: 2, priority },
    );
  } catch (err) {
    ctx.log.warn({ err, guildId, reason }, 'sync request not queued; the scheduled sync will catch up');
    return;
  }
  if (id === null) await liftWaitingSync(ctx, guildId, priority);
}

/**
 * A server whose last sync took this long (a big one: 100,000 members are a thousand member-list pages) is
 * synced in the long lane: such syncs take at most one loop per VRChat bot account, and the worker runs one
 * loop more (jobs/handlers/sync-guild.ts), so a small community's sync never waits behind big ones.
 */
export const LONG_SYNC_MS = 60_000;

/** The priority a sync of this server asked for this reason is sent with, and whether it is a long one. */
export async function syncJobFor(
  ctx: AppContext,
  guildId: string,
  reason: SyncReason,
): Promise<{ priority: number; long: boolean }> {
  const ms = await lastSyncDurationMs(ctx, guildId).catch(() => null);
  return {
    priority: syncPriority(ms) + (reason === 'schedule' ? 0 : CHANGE_PRIORITY),
    long: ms !== null && ms >= LONG_SYNC_MS,
  };
}

/**
 * A request that joined the server's waiting sync (one waiting job per server): a change lifts a waiting
 * scheduled sync to its own priority. Never throws: the waiting sync then keeps its place.
 */
export async function liftWaitingSync(ctx: AppContext, guildId: string, priority: number): Promise<void> {
  try {
    await ctx.database.executeSql(
      `update pgboss.job set priority = $3 where name = $1 and singleton_key = $2
         and state in ('created', 'retry') and priority < $3`,
      [syncGuildJob.name, guildId, priority],
    );
  } catch (err) {
    ctx.log.warn({ err, guildId }, 'the waiting sync keeps its place');
  }
}
