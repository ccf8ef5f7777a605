/**
 * A sync of many changes against the simulators' strict limits (called by `npm run bench`, or alone:
 * `tsx bench/limits.ts`): total time against the lower bound the limits allow (target ≤ 1.25×), 429s and
 * invalid requests per platform. BENCH_LIMITS_CHANGES (default 1,000) Discord role changes, time-scaled by
 * BENCH_LIMITS_TIME_SCALE (default 20: a 10 s Discord window lasts 0.5 s).
 */
import '../apps/server/src/polyfills.js';
import { MEMBER_ROLE_ROUTE, runSyncUnderLimits } from '../apps/server/test/sync-under-limits.js';

const out = (line = '') => process.stdout.write(`${line}\n`);

export async function runLimitsBench(): Promise<void> {
  const changes = Number(process.env.BENCH_LIMITS_CHANGES ?? 1000);
  const timeScale = Number(process.env.BENCH_LIMITS_TIME_SCALE ?? 20);
  out(`\nSync of ${changes} changes under the strict limits (timeScale ${timeScale})`);
  const run = await runSyncUnderLimits({ changes, timeScale, progress: (s) => out(`  … ${s}`) });
  try {
    const { discord } = run;
    const ratio = run.elapsedMs / run.lowerBoundMs;
    const roleRoutes = [`PUT ${MEMBER_ROLE_ROUTE}`, `DELETE ${MEMBER_ROLE_ROUTE}`].map(
      (r) => discord.byRoute[r],
    );
    const done = roleRoutes.reduce((n, r) => n + (r ? r.requests - r.rateLimited : 0), 0);
    out(
      `  applied ${run.result?.applied ?? 0} of ${run.result?.planned ?? 0} (${done} role changes reached Discord)`,
    );
    out(
      `  time ${(run.elapsedMs / 1000).toFixed(2)} s; lower bound ${(run.lowerBoundMs / 1000).toFixed(2)} s; ` +
        `${ratio.toFixed(2)}× the bound (target ≤ 1.25×)${ratio <= 1.25 ? '' : '  ← OVER TARGET'}`,
    );
    out(`  Discord: ${discord.requests} requests, ${discord.rateLimited} 429s, ${discord.invalid} invalid`);
  } finally {
    await run.t.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runLimitsBench();
