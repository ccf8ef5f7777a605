import { performance } from 'node:perf_hooks';
import { seedGuildIds, vrchatSeed } from '@vrclink/simulator';
import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import { discordGroupMappings, guildMembers, syncHeldRemovals } from '../src/db/schema/index.js';
import { waitFor } from '../src/platforms/testing.js';
import { runGuildSync, type SyncRunResult } from '../src/wings/group-sync/sync/sync.service.js';
import { hangoutGroupForMembers } from '../src/wings/group-sync/sync/testing.js';
import { createTestApp, type TestApp } from './app.js';
import { discordRole, signInHangoutOwner, vrchatLink } from './factories.js';

/**
 * The product's sync of many changes against the simulators' strict limits, time-scaled (`timeScale`, the
 * same for both simulators and the product's own VRChat pacing), shared by the test (sync-under-limits.test.ts:
 * every change done once, politeness) and the bench (bench/limits.ts: time against the lower bound the limits
 * allow).
 *
 * Half the changes are Discord's, half VRChat's (an odd one goes to VRChat):
 * - Discord, on the Hangout server: linked members lacking the Linked Users Role (the sync adds it) and as
 *   many unlinked members holding it (the sync takes it, the removals approved up front so the breaker does
 *   not hold them).
 * - VRChat, in the Hangout's linked group (Groups on, a Discord "Group Member" role mapped to membership, a
 *   "Group Linked" role mapped to the group's Linked role for good): a third members of the group lacking the
 *   Linked group role (role adds), a third not in the group (invites), a third with a pending join request
 *   (accepts). They are linked and already hold the Linked Users Role, so they cost Discord nothing.
 */

interface BucketLimit {
  limit: number;
  windowSeconds: number;
}

export interface PlatformCounters {
  requests: number;
  rateLimited: number;
  invalid: number;
  /** Epoch ms of the first and last answer counted (null before any). */
  firstAt: number | null;
  lastAt: number | null;
  byRoute: Record<string, { requests: number; rateLimited: number }>;
}

/** The VRChat budget the simulator applies (GET /control/vrchat/config's `rate`). */
export interface VrchatRate {
  capacity: number;
  perSecond: number;
  blockSeconds: number;
}

export interface UnderLimitsRun {
  t: TestApp;
  guildId: string;
  roleId: string;
  gainers: string[];
  losers: string[];
  vrchat: {
    groupId: string;
    /** The group role the role adds give. */
    groupRoleId: string;
    roleAdds: string[];
    invites: string[];
    accepts: string[];
  };
  result: SyncRunResult | null;
  timeScale: number;
  elapsedMs: number;
  /** From the sync's start to the last answer of each platform, in ms. */
  discordMs: number;
  vrchatMs: number;
  /**
   * The least time the limits allow, in ms, from the limits the simulators report: per platform, and for
   * the run (the platforms limit independently, so the longer of the two).
   */
  lowerBoundMs: number;
  discordBoundMs: number;
  vrchatBoundMs: number;
  /** The VRChat requests the bound counts: the writes, and the reads the sync made to observe the group. */
  vrchatBoundRequests: { writes: number; reads: number };
  vrchatRate: VrchatRate;
  discord: PlatformCounters;
  vrchatCounters: PlatformCounters;
}

export const MEMBER_ROLE_ROUTE = '/api/v10/guilds/{guild_id}/members/{user_id}/roles/{role_id}';
/** The VRChat writes of the run, as the simulator's counters name them. */
export const VRCHAT_WRITE_ROUTES = {
  roleAdds: 'PUT /groups/{groupId}/members/{userId}/roles/{groupRoleId}',
  invites: 'POST /groups/{groupId}/invites',
  accepts: 'PUT /groups/{groupId}/requests/{userId}',
} as const;

/**
 * The least time `n` requests on one bucket of `limit` per window can take: the first window opens with
 * the first request, so the last of them goes out at the start of window ceil(n / limit).
 */
export function bucketLowerBoundMs(n: number, bucket: BucketLimit, timeScale: number): number {
  return (Math.ceil(n / bucket.limit) - 1) * ((bucket.windowSeconds * 1000) / timeScale);
}

/**
 * The least time `n` requests can take on VRChat's budget (`capacity` at once, then `perSecond`): the
 * first `capacity` go at once from a full budget, each later one waits for a refill.
 */
export function tokenBucketLowerBoundMs(n: number, rate: VrchatRate, timeScale: number): number {
  return (Math.max(0, n - rate.capacity) * 1000) / rate.perSecond / timeScale;
}

/** How a run of `changes` is shared: Discord adds and removals, VRChat role adds, invites and accepts. */
export function changeSplit(changes: number) {
  const discord = Math.floor(changes / 2);
  const vrchat = changes - discord;
  const roleAdds = Math.ceil(vrchat / 3);
  const invites = Math.ceil((vrchat - roleAdds) / 2);
  return {
    discordAdds: Math.ceil(discord / 2),
    discordRemovals: Math.floor(discord / 2),
    roleAdds,
    invites,
    accepts: vrchat - roleAdds - invites,
  };
}

export async function runSyncUnderLimits(opts: {
  changes: number;
  timeScale: number;
  /** Says how far the set-up got (the bench prints it). */
  progress?: (step: string) => void;
}): Promise<UnderLimitsRun> {
  const progress = opts.progress ?? (() => {});
  const split = changeSplit(opts.changes);
  // Both simulators strict and time-scaled, and the product's VRChat pacing at the same scale.
  const t = await createTestApp({
    simulator: true,
    simulatorOptions: { timeScale: opts.timeScale },
    vrchatTimeScale: opts.timeScale,
  });
  try {
    return await run(t, opts, split, progress);
  } catch (err) {
    await t.close();
    throw err;
  }
}

async function run(
  t: TestApp,
  opts: { changes: number; timeScale: number },
  split: ReturnType<typeof changeSplit>,
  progress: (step: string) => void,
): Promise<UnderLimitsRun> {
  const guildId = seedGuildIds.hangout.id;
  const groupId = vrchatSeed.groupIds.hangout;
  const groupRoleId = vrchatSeed.roleIds.hangout.linked;
  const owner = await signInHangoutOwner(t);
  const roleId = await discordRole(t, guildId, 'Linked');
  const memberRole = await discordRole(t, guildId, 'Group Member');
  const groupLinkedRole = await discordRole(t, guildId, 'Group Linked');
  const set = await t.inject({
    method: 'POST',
    url: `/api/guilds/${guildId}`,
    session: owner.session,
    payload: { autoAssignRoles: { linkedRoleId: roleId } },
  });
  if (set.statusCode !== 200) throw new Error(`could not set the linked role: ${set.body}`);
  await hangoutGroupForMembers(t, memberRole);
  await t.ctx.db.insert(discordGroupMappings).values({
    guildId,
    discordRoleId: groupLinkedRole,
    groupRoleId,
    action: 'GrantRolePermanent',
  });

  // Members join through the control API (as people would, gateway events and all), a few at a time.
  progress('app started');
  const joined: string[] = [];
  const join = async (roles: string[]) => {
    const n = joined.length;
    joined.push('');
    const res = await t.control('POST', `/discord/guilds/${guildId}/members`, {
      username: `limits_${n}`,
      roles,
    });
    if (res.status !== 201) throw new Error(`could not add member ${n}: ${JSON.stringify(res.body)}`);
    joined[n] = res.body.userId as string;
    return joined[n];
  };
  const inBatches = async <T>(n: number, one: (i: number) => Promise<T>): Promise<T[]> => {
    const out: T[] = [];
    for (let i = 0; i < n; i += 25)
      out.push(...(await Promise.all(Array.from({ length: Math.min(25, n - i) }, (_, k) => one(i + k)))));
    return out;
  };
  const gainers = await inBatches(split.discordAdds, () => join([]));
  const losers = await inBatches(split.discordRemovals, () => join([roleId]));
  for (const [i, discordUserId] of gainers.entries())
    await vrchatLink(t, { discordUserId, vrchatName: `Limits ${i}` });

  // VRChat people: a VRChat user each, linked to a Discord member who already holds the Linked Users Role.
  const vrchatPerson = async (name: string, discordRoles: string[]) => {
    const user = await t.control('POST', '/vrchat/users', { displayName: name });
    if (user.status !== 201) throw new Error(`could not create ${name}: ${JSON.stringify(user.body)}`);
    const discordUserId = await join([roleId, ...discordRoles]);
    await vrchatLink(t, { discordUserId, vrcUserId: user.body.id, vrchatName: name });
    return user.body.id as string;
  };
  const must = async (res: Promise<{ status: number; body: unknown }>, what: string) => {
    const r = await res;
    if (r.status !== 201) throw new Error(`could not ${what}: ${JSON.stringify(r.body)}`);
  };
  const roleAdds = await inBatches(split.roleAdds, async (i) => {
    const id = await vrchatPerson(`Limits Member ${i}`, [memberRole, groupLinkedRole]);
    await must(t.control('POST', `/vrchat/groups/${groupId}/members/${id}`, {}), `add ${id} to the group`);
    return id;
  });
  const invites = await inBatches(split.invites, (i) => vrchatPerson(`Limits Invitee ${i}`, [memberRole]));
  const accepts = await inBatches(split.accepts, async (i) => {
    const id = await vrchatPerson(`Limits Requester ${i}`, [memberRole]);
    await must(t.control('POST', `/vrchat/groups/${groupId}/requests`, { userId: id }), `request for ${id}`);
    return id;
  });
  progress(
    `${joined.length} members joined, ${roleAdds.length + invites.length + accepts.length} of them in VRChat`,
  );

  // The sync plans from the member mirror: wait until the bot has stored every join (theirs; the seed's
  // members are in the mirror already, so a count of all would be reached too early).
  await waitFor(async () => {
    let stored = 0;
    for (let i = 0; i < joined.length; i += 500) {
      const [row] = await t.ctx.db
        .select({ n: count() })
        .from(guildMembers)
        .where(
          and(
            eq(guildMembers.guildId, guildId),
            isNull(guildMembers.leftAt),
            inArray(guildMembers.userId, joined.slice(i, i + 500)),
          ),
        );
      stored += row?.n ?? 0;
    }
    return stored === joined.length;
  }, 60_000);

  progress('the bot has stored every join; syncing');
  // A full VRChat budget to start from (the set-up's own calls, such as the login, spent some of it):
  // setting the config, even to itself, empties the simulator's buckets.
  await t.control('PATCH', '/vrchat/config', {});
  await t.control('DELETE', '/discord/counters');
  await t.control('DELETE', '/vrchat/counters');
  // Approved up front as a manager's Apply records them (the breaker remembers held removals and their
  // decision), so the breaker carries them out instead of holding them.
  const approvedRemovals = losers.map((u) => `drole:${u}:${roleId}`);
  await t.ctx.db.insert(syncHeldRemovals).values(
    losers.map((u) => ({
      guildId,
      key: `drole:${u}:${roleId}`,
      kind: 'removeDiscordRole' as const,
      discordUserId: u,
      roleId,
      reason: 'LinkedRole',
      targetName: u,
      decision: 'apply' as const,
      decidedAt: new Date(),
    })),
  );
  const startedAt = Date.now();
  const started = performance.now();
  const result = await runGuildSync(t.ctx, guildId, { approvedRemovals });
  const elapsedMs = performance.now() - started;
  const discord = (await t.control('GET', '/discord/counters')).body as PlatformCounters;
  const vrchatCounters = (await t.control('GET', '/vrchat/counters')).body as PlatformCounters;
  const limits = (await t.control('GET', '/discord/rate-limits')).body as {
    timeScale: number;
    routeBuckets: { memberRoles: BucketLimit };
  };
  const discordBoundMs = bucketLowerBoundMs(
    split.discordAdds + split.discordRemovals,
    limits.routeBuckets.memberRoles,
    limits.timeScale,
  );
  // VRChat: every write once, and the reads the sync made to observe the group (answered ones: a 429 is
  // no read). Reads are counted as the product made them; the bound does not question how many it needs.
  const vrchatRate = await vrchatRateOf(t);
  const writes = split.roleAdds + split.invites + split.accepts;
  const answered = vrchatCounters.requests - vrchatCounters.rateLimited;
  const writesAnswered = Object.values(VRCHAT_WRITE_ROUTES).reduce((n, r) => {
    const c = vrchatCounters.byRoute[r];
    return n + (c ? c.requests - c.rateLimited : 0);
  }, 0);
  const reads = answered - writesAnswered;
  const vrchatBoundMs = tokenBucketLowerBoundMs(writes + reads, vrchatRate, opts.timeScale);
  const since = (at: number | null) => (at === null ? 0 : at - startedAt);
  return {
    t,
    guildId,
    roleId,
    gainers,
    losers,
    vrchat: { groupId, groupRoleId, roleAdds, invites, accepts },
    result,
    timeScale: opts.timeScale,
    elapsedMs,
    discordMs: since(discord.lastAt),
    vrchatMs: since(vrchatCounters.lastAt),
    lowerBoundMs: Math.max(discordBoundMs, vrchatBoundMs),
    discordBoundMs,
    vrchatBoundMs,
    vrchatBoundRequests: { writes, reads },
    vrchatRate,
    discord,
    vrchatCounters,
  };
}

async function vrchatRateOf(t: TestApp): Promise<VrchatRate> {
  return ((await t.control('GET', '/vrchat/config')).body as { rate: VrchatRate }).rate;
}
