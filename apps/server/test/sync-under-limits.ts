import { performance } from 'node:perf_hooks';
import { seedGuildIds } from '@vrclink/simulator';
import { and, count, eq, isNull } from 'drizzle-orm';
import { guildMembers } from '../src/db/schema/index.js';
import { waitFor } from '../src/platforms/testing.js';
import { runGuildSync, type SyncRunResult } from '../src/wings/group-sync/sync/sync.service.js';
import { createTestApp, type TestApp } from './app.js';
import { discordRole, signInHangoutOwner, vrchatLink } from './factories.js';

/**
 * The product's sync of many changes against the simulators' strict limits, time-scaled (`timeScale`), shared
 * by the test (sync-under-limits.test.ts: every change done once, politeness) and the bench (bench/limits.ts:
 * time against the lower bound the limits allow).
 *
 * Discord half: on one server, `changes / 2` linked members lack the linked role (the sync adds it) and
 * `changes / 2` unlinked members hold it (the sync takes it, the removals approved up front so the breaker
 * does not hold them).
 */

interface BucketLimit {
  limit: number;
  windowSeconds: number;
}

export interface DiscordCounters {
  requests: number;
  rateLimited: number;
  invalid: number;
  byRoute: Record<string, { requests: number; rateLimited: number }>;
}

export interface UnderLimitsRun {
  t: TestApp;
  guildId: string;
  roleId: string;
  gainers: string[];
  losers: string[];
  result: SyncRunResult | null;
  elapsedMs: number;
  /** The least time the limits allow for these changes, in ms, from the limits the simulator reports. */
  lowerBoundMs: number;
  discord: DiscordCounters;
}

export const MEMBER_ROLE_ROUTE = '/api/v10/guilds/{guild_id}/members/{user_id}/roles/{role_id}';

/**
 * The least time `n` requests on one bucket of `limit` per window can take: the first window opens with
 * the first request, so the last of them goes out at the start of window ceil(n / limit).
 */
export function bucketLowerBoundMs(n: number, bucket: BucketLimit, timeScale: number): number {
  return (Math.ceil(n / bucket.limit) - 1) * ((bucket.windowSeconds * 1000) / timeScale);
}

export async function runSyncUnderLimits(opts: {
  changes: number;
  timeScale: number;
  /** Says how far the set-up got (the bench prints it). */
  progress?: (step: string) => void;
}): Promise<UnderLimitsRun> {
  const progress = opts.progress ?? (() => {});
  const t = await createTestApp({ simulator: true, simulatorOptions: { timeScale: opts.timeScale } });
  const guildId = seedGuildIds.hangout.id;
  const owner = await signInHangoutOwner(t);
  const roleId = await discordRole(t, guildId, 'Linked');
  const set = await t.inject({
    method: 'POST',
    url: `/api/guilds/${guildId}`,
    session: owner.session,
    payload: { autoAssignRoles: { linkedRoleId: roleId } },
  });
  if (set.statusCode !== 200) throw new Error(`could not set the linked role: ${set.body}`);

  // Members join through the control API (as people would, gateway events and all), a few at a time.
  progress('app started');
  const half = Math.floor(opts.changes / 2);
  const join = async (i: number, roles: string[]) => {
    const res = await t.control('POST', `/discord/guilds/${guildId}/members`, {
      username: `limits_${i}`,
      roles,
    });
    if (res.status !== 201) throw new Error(`could not add member ${i}: ${JSON.stringify(res.body)}`);
    return res.body.userId as string;
  };
  const gainers: string[] = [];
  const losers: string[] = [];
  for (let i = 0; i < half; i += 25) {
    const batch = Array.from({ length: Math.min(25, half - i) }, (_, k) => i + k);
    gainers.push(...(await Promise.all(batch.map((n) => join(n, [])))));
    losers.push(...(await Promise.all(batch.map((n) => join(half + n, [roleId])))));
  }
  progress(`${gainers.length + losers.length} members joined`);
  for (const [i, discordUserId] of gainers.entries())
    await vrchatLink(t, { discordUserId, vrchatName: `Limits ${i}` });
  // The sync plans from the member mirror: wait until the bot has stored every join.
  await waitFor(async () => {
    const [row] = await t.ctx.db
      .select({ n: count() })
      .from(guildMembers)
      .where(and(eq(guildMembers.guildId, guildId), isNull(guildMembers.leftAt)));
    return (row?.n ?? 0) >= 2 * half;
  }, 60_000);

  progress('the bot has stored every join; syncing');
  await t.control('DELETE', '/discord/counters');
  const approvedRemovals = losers.map((u) => `drole:${u}:${roleId}`);
  const started = performance.now();
  const result = await runGuildSync(t.ctx, guildId, { approvedRemovals });
  const elapsedMs = performance.now() - started;
  const discord = (await t.control('GET', '/discord/counters')).body as DiscordCounters;
  const limits = (await t.control('GET', '/discord/rate-limits')).body as {
    timeScale: number;
    routeBuckets: { memberRoles: BucketLimit };
  };
  const lowerBoundMs = bucketLowerBoundMs(2 * half, limits.routeBuckets.memberRoles, limits.timeScale);
  return { t, guildId, roleId, gainers, losers, result, elapsedMs, lowerBoundMs, discord };
}
