/**
 * `npm run bench`: every benchmark in `bench/`, one after the other (each can be skipped with its variable, or
 * run alone with `npx tsx bench/<name>.ts`). The request path is measured from outside with every party in its
 * own process (the product as production runs it, a bare Node anchor, nginx when installed, wrk); the others
 * measure the product's engines against what the platforms allow or against their own earlier figures, and
 * have no HTTP anchor. docs/benchmarks.md holds what each prints and the figures.
 */
import '../apps/server/src/polyfills.js';

// The request path from outside (BENCH_REQUEST_PATH=0 skips it): world data, /api/config, /api/user signed
// in, each against bare Node and nginx in their own processes; the targets of issue #22 are checked there.
if (process.env.BENCH_REQUEST_PATH !== '0') await (await import('./request-path.js')).runRequestPathBench();

// The member mirror at scale (BENCH_MEMBERS, default 100,000; 0 skips): fills and the Members tab search.
if (process.env.BENCH_MEMBERS !== '0') await (await import('./members.js')).runMemberBench();

// The sync engine (BENCH_SYNC=0 skips): the diff at 100,000 members, platform calls, propagation.
if (process.env.BENCH_SYNC !== '0') await (await import('./sync.js')).runSyncBench();

// A sync of 1,000 changes under the strict platform limits, time-scaled (BENCH_LIMITS=0 skips): time vs the bound.
if (process.env.BENCH_LIMITS !== '0') await (await import('./limits.js')).runLimitsBench();

// Many communities, the Discord side (BENCH_SCALE=0 skips; about 13 minutes at 1,100 servers, most of it the
// member mirror's fill, paced by Discord's gateway send limit): bot,worker and api processes on PostgreSQL,
// time to ready and to a complete mirror, RSS, /api/guilds and a server page at c10 (p95 ≤ 100 ms, 0 Discord
// calls from the api process), and a gateway RESUME that rewrites no row. A VRChat side plugs in as a ScaleSide.
if (process.env.BENCH_SCALE !== '0') await (await import('./scale.js')).runScaleBench();
// Many communities, the VRChat side (BENCH_SCALE_VRCHAT=0 skips): 1,100 servers, 45,000 links, K bot accounts
// (1 and 11) against strict time-scaled simulators: follow, sync pass, change-to-effect p95, 429s, per K.
if (process.env.BENCH_SCALE_VRCHAT !== '0') await (await import('./scale-vrchat.js')).runScaleVrchatBench();

// Start-up and first load (BENCH_START=0 skips): warm `npm start` to a healthy server, the home page's gzipped JS.
if (process.env.BENCH_START !== '0') await (await import('./start.js')).runStartBench();
