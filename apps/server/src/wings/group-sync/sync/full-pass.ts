import { inArray } from 'drizzle-orm';
import { guildSyncState } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import { linkedOnlyGuildIds } from '../../access/index.js';

/**
 * How often a server nothing changed in is synced anyway (the slow full pass). Changes ask for their own sync
 * (member and role events, the group audit-log follow, links, mappings, settings, Sync now), so the schedule
 * only re-checks what no event reports: at 1,100 linked groups a pass every 15 minutes would ask for more
 * VRChat reads than eleven accounts have.
 */
export const FULL_PASS_INTERVAL_MS = 6 * 60 * 60_000;

/** What the scheduled pass knows of a server's last sync. */
export interface LastSyncFacts {
  lastRunAt: Date | null;
  /** When a sync last started (later than lastRunAt: it failed, or its worker died, or it runs now). */
  lastAttemptAt: Date | null;
  /** The last sync's writes that failed (retried by the next sync). */
  failed: number;
  /** Following the group's audit log fails: group changes are not seen, so no sync is asked for them. */
  followFailing: boolean;
  /** The mirror keeps linked members only: no member events, so Discord role changes are not seen either. */
  linkedOnly: boolean;
}

/**
 * Why the scheduled pass syncs a server now, or null when it skips it (no group read: nothing changed that an
 * event would not have reported, and its last clean sync is younger than FULL_PASS_INTERVAL_MS).
 */
export function fullPassReason(
  facts: LastSyncFacts,
  now: number,
): 'never' | 'unfinished' | 'failed' | 'unfollowed' | 'linkedOnly' | 'due' | null {
  if (!facts.lastRunAt) return 'never';
  if (facts.lastAttemptAt && facts.lastAttemptAt > facts.lastRunAt) return 'unfinished';
  if (facts.failed > 0) return 'failed';
  if (facts.followFailing) return 'unfollowed';
  if (facts.linkedOnly) return 'linkedOnly';
  if (now - facts.lastRunAt.getTime() >= FULL_PASS_INTERVAL_MS) return 'due';
  return null;
}

/** Each server's facts, read in two queries whatever the number of servers. */
export async function lastSyncFacts(
  ctx: AppContext,
  guildIds: string[],
): Promise<Map<string, LastSyncFacts>> {
  const rows = guildIds.length
    ? await ctx.db
        .select({
          guildId: guildSyncState.guildId,
          lastRunAt: guildSyncState.lastRunAt,
          lastAttemptAt: guildSyncState.lastAttemptAt,
          lastResult: guildSyncState.lastResult,
          followFailures: guildSyncState.followFailures,
        })
        .from(guildSyncState)
        .where(inArray(guildSyncState.guildId, guildIds))
    : [];
  const byGuild = new Map(rows.map((r) => [r.guildId, r]));
  const linkedOnly = await linkedOnlyGuildIds(ctx.db, guildIds);
  const facts = new Map<string, LastSyncFacts>();
  for (const guildId of guildIds) {
    const row = byGuild.get(guildId);
    facts.set(guildId, {
      lastRunAt: row?.lastRunAt ?? null,
      lastAttemptAt: row?.lastAttemptAt ?? null,
      failed: Number((row?.lastResult as { failed?: number } | null)?.failed ?? 0),
      followFailing: (row?.followFailures ?? 0) > 0,
      linkedOnly: linkedOnly.has(guildId),
    });
  }
  return facts;
}

/** The servers the scheduled pass syncs now (see fullPassReason), in the order given. */
export async function serversDueForFullPass(ctx: AppContext, guildIds: string[]): Promise<string[]> {
  const facts = await lastSyncFacts(ctx, guildIds);
  const now = Date.now();
  return guildIds.filter((id) => fullPassReason(facts.get(id) as LastSyncFacts, now) !== null);
}

/**
 * When the scheduled pass syncs this server next: at the pass's next run if it is due by then, otherwise at the
 * first run after its last sync is FULL_PASS_INTERVAL_MS old (an estimate: the pass runs every 15 minutes).
 */
export function nextFullPassSync(facts: LastSyncFacts, nextPassAt: Date): Date {
  if (fullPassReason(facts, nextPassAt.getTime()) !== null || !facts.lastRunAt) return nextPassAt;
  return new Date(Math.max(nextPassAt.getTime(), facts.lastRunAt.getTime() + FULL_PASS_INTERVAL_MS));
}
