/**
 * A sync of many changes against the simulators' strict limits (called by `npm run bench`, or alone:
 * `tsx bench/limits.ts`): total time against the lower bound the limits allow (target ≤ 1.25×), per platform
 * too, with 429s and invalid requests per platform. BENCH_LIMITS_CHANGES (default 1,000) changes, half Discord
 * role adds and removals, half VRChat group role adds, invites and join-request accepts; time-scaled by
 * BENCH_LIMITS_TIME_SCALE (default 20: a 10 s Discord window lasts 0.5 s, VRChat refills 20 a second), the
 * product's VRChat pacing at the same scale.
 */
import '../apps/server/src/polyfills.js';
import {
  MEMBER_ROLE_ROUTE,
  runSyncUnderLimits,
  VRCHAT_WRITE_ROUTES,
} from '../apps/server/test/sync-under-limits.js';

const out = (line = '') => process.stdout.write(`${line}\n`);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const against = (ms: number, bound: number) => {
  const ratio = ms / bound;
  return `${s(ms)} against ${s(bound)}: ${ratio.toFixed(2)}× the bound (target ≤ 1.25×)${ratio <= 1.25 ? '' : '  ← OVER TARGET'}`;
};

export async function runLimitsBench(): Promise<void> {
  const changes = Number(process.env.BENCH_LIMITS_CHANGES ?? 1000);
  const timeScale = Number(process.env.BENCH_LIMITS_TIME_SCALE ?? 20);
  out(`\nSync of ${changes} changes under the strict limits (timeScale ${timeScale})`);
  const run = await runSyncUnderLimits({ changes, timeScale, progress: (step) => out(`  … ${step}`) });
  try {
    const { discord, vrchatCounters: vrchat } = run;
    const done = (byRoute: typeof discord.byRoute, routes: string[]) =>
      routes.reduce((n, r) => n + (byRoute[r] ? byRoute[r].requests - byRoute[r].rateLimited : 0), 0);
    const discordDone = done(discord.byRoute, [`PUT ${MEMBER_ROLE_ROUTE}`, `DELETE ${MEMBER_ROLE_ROUTE}`]);
    const vrchatDone = done(vrchat.byRoute, Object.values(VRCHAT_WRITE_ROUTES));
    out(
      `  applied ${run.result?.applied ?? 0} of ${run.result?.planned ?? 0} (${discordDone} role changes reached ` +
        `Discord, ${vrchatDone} writes reached VRChat)`,
    );
    out(`  total ${against(run.elapsedMs, run.lowerBoundMs)}`);
    out(`  Discord: ${against(run.discordMs, run.discordBoundMs)}`);
    out(`    ${discord.requests} requests, ${discord.rateLimited} 429s, ${discord.invalid} invalid`);
    const { writes, reads } = run.vrchatBoundRequests;
    const rate = run.vrchatRate;
    out(`  VRChat: ${against(run.vrchatMs, run.vrchatBoundMs)}`);
    out(
      `    the bound: ${writes} writes + ${reads} reads at ${rate.perSecond}/s after a burst of ${rate.capacity}`,
    );
    out(`    ${vrchat.requests} requests, ${vrchat.rateLimited} 429s, ${vrchat.invalid} invalid`);
  } finally {
    await run.t.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runLimitsBench();
