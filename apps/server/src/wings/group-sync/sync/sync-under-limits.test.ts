import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changeSplit,
  MEMBER_ROLE_ROUTE,
  runSyncUnderLimits,
  type UnderLimitsRun,
  VRCHAT_WRITE_ROUTES,
} from '../../../../test/sync-under-limits.js';

/**
 * A sync of many changes against both simulators' strict limits, 100 times faster (`timeScale`, the product's
 * VRChat pacing too) so it takes seconds: Discord role adds and removals on one server (10 member role changes
 * per 10 s per guild), VRChat group role adds, invites and join-request accepts (a budget of 5 at once, then
 * 1 a second; a 60 s block, doubled by every call made during it). Every change done exactly once, no
 * Discord 429 beyond the first of the bucket, at most one VRChat 429 per block, no invalid request.
 * The time against the bound the limits allow is a figure, reported here and measured in bench/limits.ts.
 */
/**
 * 200 here (50 Discord adds, 50 removals; 34 VRChat role adds, 33 invites, 33 accepts), so CI stays fast;
 * bench/limits.ts runs the same sync with 1,000.
 */
const CHANGES = 200;
const split = changeSplit(CHANGES);

describe('a sync of many changes under the strict Discord and VRChat limits', () => {
  let run: UnderLimitsRun;
  beforeAll(async () => {
    run = await runSyncUnderLimits({ changes: CHANGES, timeScale: 100 });
  }, 400_000);
  afterAll(() => run?.t.close());

  it('applies every change once, politely', async () => {
    const { result, discord, vrchatCounters: vrchat } = run;
    expect(result).toMatchObject({ planned: CHANGES, applied: CHANGES, failed: 0, held: 0 });
    const done = (route: { requests: number; rateLimited: number } | undefined) =>
      (route?.requests ?? 0) - (route?.rateLimited ?? 0);
    // Each change reached its platform exactly once (a 429 is not done; its retry is the one that counts).
    const adds = discord.byRoute[`PUT ${MEMBER_ROLE_ROUTE}`];
    const removals = discord.byRoute[`DELETE ${MEMBER_ROLE_ROUTE}`];
    expect(done(adds)).toBe(split.discordAdds);
    expect(done(removals)).toBe(split.discordRemovals);
    expect(done(vrchat.byRoute[VRCHAT_WRITE_ROUTES.roleAdds])).toBe(split.roleAdds);
    expect(done(vrchat.byRoute[VRCHAT_WRITE_ROUTES.invites])).toBe(split.invites);
    expect(done(vrchat.byRoute[VRCHAT_WRITE_ROUTES.accepts])).toBe(split.accepts);
    // Discord: one bucket for both routes, at most its first 429 (before discord.js learnt the shared hash).
    expect((adds?.rateLimited ?? 0) + (removals?.rateLimited ?? 0)).toBeLessThanOrEqual(1);
    expect(discord.rateLimited).toBeLessThanOrEqual(1);
    // VRChat: every 429 starts or extends a block, so "at most one per block" is at most one in all (a
    // second 429 would be a call made while blocked).
    expect(vrchat.rateLimited).toBeLessThanOrEqual(1);
    expect(discord.invalid).toBe(0);
    expect(vrchat.invalid).toBe(0);
    const ratio = (ms: number, bound: number) => `${(ms / bound).toFixed(2)}x`;
    process.stdout.write(
      `sync of ${CHANGES} changes: ${Math.round(run.elapsedMs)} ms against ${Math.round(run.lowerBoundMs)} ms ` +
        `(${ratio(run.elapsedMs, run.lowerBoundMs)}); Discord ${Math.round(run.discordMs)} ms against ` +
        `${Math.round(run.discordBoundMs)} ms (${ratio(run.discordMs, run.discordBoundMs)}), 429s ${discord.rateLimited}; ` +
        `VRChat ${Math.round(run.vrchatMs)} ms against ${Math.round(run.vrchatBoundMs)} ms ` +
        `(${ratio(run.vrchatMs, run.vrchatBoundMs)}, ${run.vrchatBoundRequests.reads} reads), 429s ${vrchat.rateLimited}\n`,
    );
  });

  it('leaves the simulated Discord as the rules ask: every linked member holds the role, nobody else', async () => {
    const guild = (await run.t.control('GET', `/discord/guilds/${run.guildId}`)).body as {
      members: { userId: string; roles: string[] }[];
    };
    const holders = new Set(guild.members.filter((m) => m.roles.includes(run.roleId)).map((m) => m.userId));
    expect(run.gainers.every((u) => holders.has(u))).toBe(true);
    expect(run.losers.some((u) => holders.has(u))).toBe(false);
  });

  it('leaves the simulated VRChat group as the rules ask: roles given, invites sent, requests accepted', async () => {
    const group = (await run.t.control('GET', `/vrchat/groups/${run.vrchat.groupId}`)).body as {
      memberships: { userId: string; status: string; roleIds: string[] }[];
    };
    const byUser = new Map(group.memberships.map((m) => [m.userId, m]));
    const { roleAdds, invites, accepts, groupRoleId } = run.vrchat;
    expect(roleAdds.filter((u) => byUser.get(u)?.roleIds.includes(groupRoleId))).toHaveLength(
      roleAdds.length,
    );
    expect(invites.filter((u) => byUser.get(u)?.status === 'invited')).toHaveLength(invites.length);
    expect(accepts.filter((u) => byUser.get(u)?.status === 'member')).toHaveLength(accepts.length);
  });
});
