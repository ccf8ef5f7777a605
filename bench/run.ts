/**
 * `npm run bench`: request cost of the account, server settings and world data routes, as ratios against GET /api/health measured in the
 * same run (so the figures compare across machines). Runs the real app on an in-memory database against
 * the simulators, with the demo seed, through Fastify's inject (no sockets: the server's own cost).
 */
import '../apps/server/src/polyfills.js';
import { performance } from 'node:perf_hooks';
import { seedGuildIds, seedUserIds, vrchatSeed } from '@vrclink/simulator';
import { seedDemoData } from '../apps/server/src/demo-seed.js';
import { createTestApp, signIn } from '../apps/server/test/app.js';

// The request path from outside: the product, bare Node and nginx each in its own process, loaded by wrk
// (BENCH_REQUEST_PATH=0 skips it). The targets of issue #22 are checked there.
if (process.env.BENCH_REQUEST_PATH !== '0') await (await import('./request-path.js')).runRequestPathBench();

// The request path in-process, more routes (BENCH_HTTP=0 skips it): the anchor shares the app's process.
if (process.env.BENCH_HTTP !== '0') await (await import('./http.js')).runHttpBench();

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = 30;

// The per-user rate limit (600 a minute by default) is not what this measures.
const t = await createTestApp({ simulator: true, env: { RATE_LIMIT_USER: '1000000000' } });
await seedDemoData(t.ctx.db);
// Measure the server, not the simulated VRChat rate limit (10/s, which the pacer would wait out).
await t.control('PATCH', '/vrchat/config', { rate: { capacity: 100_000, perSecond: 100_000 } });
const admin = await signIn(t, { id: seedUserIds.admin, username: 'demo_admin' });
const hangout = seedGuildIds.hangout.id;
const aurora = vrchatSeed.userIds['Aurora Skye']!;
const worldsUrl = `/api/guilds/${hangout}/worlds`;
const lobby: string = (await t.inject({ method: 'GET', url: worldsUrl, session: admin.session })).json()
  .worlds[0].id;

type Case = { name: string; run: () => Promise<{ statusCode: number }> };
const cases: Case[] = [
  { name: 'GET /api/health (baseline)', run: () => t.inject({ method: 'GET', url: '/api/health' }) },
  { name: 'GET /api/user', run: () => t.inject({ method: 'GET', url: '/api/user', session: admin.session }) },
  {
    name: 'GET /api/users/profile',
    run: () => t.inject({ method: 'GET', url: '/api/users/profile', session: admin.session }),
  },
  {
    name: 'GET /api/users/check',
    run: () => t.inject({ method: 'GET', url: `/api/users/check?vrcId=${aurora}`, session: admin.session }),
  },
  {
    name: 'GET /api/users/guests/{guildId}',
    run: () => t.inject({ method: 'GET', url: `/api/users/guests/${hangout}`, session: admin.session }),
  },
  {
    // Reads the VRChat user through the pacer and the simulator's HTTP API, then writes the link.
    name: 'POST /api/users/link (VRChat round trip)',
    run: () => t.inject({ method: 'POST', url: `/api/users/link?vrcId=${aurora}`, session: admin.session }),
  },
  {
    name: 'GET /api/guilds',
    run: () => t.inject({ method: 'GET', url: '/api/guilds', session: admin.session }),
  },
  {
    name: 'GET /api/guilds/{guildId}/worlds',
    run: () => t.inject({ method: 'GET', url: worldsUrl, session: admin.session }),
  },
  {
    // Searches the member mirror in SQL and reads the page's links and link history.
    name: 'GET /api/members/{guildId}?search',
    run: () =>
      t.inject({
        method: 'GET',
        url: `/api/members/${hangout}?searchBy=DiscordName&search=a`,
        session: admin.session,
      }),
  },
  {
    // What every world downloads on join: the body in memory (inject skips the socket fast path; see world-data.ts).
    name: 'GET /data/v2/{worldGuid} (cached)',
    run: () => t.inject({ method: 'GET', url: `/data/v2/${lobby}` }),
  },
  {
    // A full build: members, verified links, guests, the VRChat group's roles and members (two VRChat calls).
    name: 'GET …/worlds/preview/{worldId} (full build)',
    run: () => t.inject({ method: 'GET', url: `${worldsUrl}/preview/${lobby}`, session: admin.session }),
  },
];

async function measure(c: Case): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await c.run();
  const start = performance.now();
  for (let i = 0; i < ITERATIONS; i++) {
    const res = await c.run();
    if (res.statusCode >= 400) throw new Error(`${c.name} answered ${res.statusCode}`);
  }
  return ((performance.now() - start) * 1000) / ITERATIONS;
}

try {
  const results: { name: string; micros: number }[] = [];
  for (const c of cases) results.push({ name: c.name, micros: await measure(c) });
  const baseline = results[0]!.micros;
  process.stdout.write(`${ITERATIONS} sequential requests per case (after ${WARMUP} warm-up)\n\n`);
  process.stdout.write(`${'case'.padEnd(44)}${'µs/request'.padStart(12)}${'× baseline'.padStart(12)}\n`);
  for (const r of results) {
    process.stdout.write(
      `${r.name.padEnd(44)}${r.micros.toFixed(0).padStart(12)}${(r.micros / baseline).toFixed(1).padStart(12)}\n`,
    );
  }
} finally {
  await t.close();
}

// World data downloads over sockets (BENCH_WORLD_DATA=0 skips): a 1,000-member world against a bare server.
if (process.env.BENCH_WORLD_DATA !== '0') await (await import('./world-data.js')).runWorldDataBench();

// The member mirror at scale (BENCH_MEMBERS, default 100,000; 0 skips): fills and the Members tab search.
if (process.env.BENCH_MEMBERS !== '0') await (await import('./members.js')).runMemberBench();

// The sync engine (BENCH_SYNC=0 skips): the diff at 100,000 members, platform calls, propagation.
if (process.env.BENCH_SYNC !== '0') await (await import('./sync.js')).runSyncBench();

// A sync of 1,000 changes under the strict platform limits, time-scaled (BENCH_LIMITS=0 skips): time vs the bound.
if (process.env.BENCH_LIMITS !== '0') await (await import('./limits.js')).runLimitsBench();

// Start-up and first load (BENCH_START=0 skips): warm `npm start` to a healthy server, the home page's gzipped JS.
if (process.env.BENCH_START !== '0') await (await import('./start.js')).runStartBench();
