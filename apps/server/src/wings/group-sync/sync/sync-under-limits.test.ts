import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEMBER_ROLE_ROUTE,
  runSyncUnderLimits,
  type UnderLimitsRun,
} from '../../../../test/sync-under-limits.js';

/**
 * A sync of Discord role changes (half adds, half removals on one server) against the simulator's strict
 * per-route buckets (10 member role changes per 10 s per guild), 100 times faster (`timeScale`) so it takes
 * seconds: every change done exactly once, no 429 beyond the first of the bucket, no invalid request.
 * The time against the bound the limits allow is a figure, reported here and measured in bench/limits.ts.
 */
/**
 * 200 here (100 adds, 100 removals), so CI stays fast; bench/limits.ts runs the same sync with 1,000. On a
 * 2-CPU machine shared by other suites a 1,000-change run did not finish set-up and sync within 10 minutes.
 */
const CHANGES = 200;

describe('a sync of many changes under the strict Discord limits', () => {
  let run: UnderLimitsRun;
  beforeAll(async () => {
    run = await runSyncUnderLimits({ changes: CHANGES, timeScale: 100 });
  }, 400_000);
  afterAll(() => run?.t.close());

  it('applies every change once, politely', async () => {
    const { result, discord } = run;
    expect(result).toMatchObject({ planned: CHANGES, applied: CHANGES, failed: 0, held: 0 });
    const adds = discord.byRoute[`PUT ${MEMBER_ROLE_ROUTE}`];
    const removals = discord.byRoute[`DELETE ${MEMBER_ROLE_ROUTE}`];
    // Each change reached Discord exactly once (a 429 is not done; its retry is the one that counts).
    expect(adds.requests - adds.rateLimited).toBe(CHANGES / 2);
    expect(removals.requests - removals.rateLimited).toBe(CHANGES / 2);
    // One bucket for both routes: at most its first 429 (before discord.js learnt the shared hash).
    expect(adds.rateLimited + removals.rateLimited).toBeLessThanOrEqual(1);
    expect(discord.invalid).toBe(0);
    process.stdout.write(
      `sync of ${CHANGES} Discord changes: ${Math.round(run.elapsedMs)} ms, lower bound ${Math.round(run.lowerBoundMs)} ms ` +
        `(${(run.elapsedMs / run.lowerBoundMs).toFixed(2)}x), 429s ${discord.rateLimited}, invalid ${discord.invalid}\n`,
    );
  });

  it('leaves the simulated Discord as the rules ask: every linked member holds the role, nobody else', async () => {
    const guild = (await run.t.control('GET', `/discord/guilds/${run.guildId}`)).body as {
      members: { userId: string; roles: string[] }[];
    };
    const holders = new Set(guild.members.filter((m) => m.roles.includes(run.roleId)).map((m) => m.userId));
    expect(run.gainers.every((u) => holders.has(u))).toBe(true);
    expect(run.losers.some((u) => holders.has(u))).toBe(false);
    expect(holders.size).toBe(CHANGES / 2);
  });
});
