/**
 * Many communities, the Discord side (issue #31 item 6; a part of `npm run bench`, BENCH_SCALE=0 skips it, or
 * alone: `npx tsx bench/scale.ts`). The world: BENCH_SCALE_SERVERS (1,100) bulk servers in the strict simulator
 * (besides its seeded ones) with BENCH_SCALE_MEMBERS (150,000; the issue's figure is 1,000,000) members spread by
 * Zipf's law (mostly small, a few large), BENCH_SCALE_LINKS (45,000) linked members, and a manager holding Admin
 * in BENCH_SCALE_MANAGED (50) servers. The product runs as production runs it: two processes of the `npm start`
 * bundle, NODE_ENV=production, on a throw-away database of the PostgreSQL server at BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test): `bot,worker` (the gateway holder) and `api`, the latter talking to
 * the simulator through a counting proxy. wrk (its own process) loads the api process. It reports:
 * - time to listen, to ready, to every server's snapshot and until the member mirror is complete; RSS;
 * - `/api/guilds` for the manager and a server page's reads at c10: p50/p95/p99, req/s (target p95 ≤ 100 ms),
 *   and the Discord REST calls the api process made meanwhile (target 0);
 * - a gateway RESUME (op 7 from the simulator): `guild_members` and `guild_snapshots` rows written in the
 *   BENCH_SCALE_RESUME_WINDOW (15 s) after it (target 0; by xmin, and pg_stat_user_tables as a cross-check).
 * The mirror's fill is paced by Discord's gateway send limit (100 op 8 a minute per shard in the product):
 * at 1,100 servers on one shard it takes at least 11 minutes, and so does the bench.
 */
import '../apps/server/src/polyfills.js';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { type Database, openDatabase } from '../apps/server/src/db/client.js';
import { startOwnSimulator } from '../apps/server/src/demo.js';
import { callSimulatorControl } from '../apps/server/src/platforms/testing.js';
import { createSession } from '../apps/server/src/wings/identity/auth/session.service.js';
import { upsertUser } from '../apps/server/src/wings/identity/auth/user.service.js';
import { countingProxy } from '../apps/server/test/counting-proxy.js';
import { createScratchDatabase } from '../apps/server/test/db.js';
import { freePort, type ServerProcess, startServerProcess } from '../apps/server/test/server-process.js';
// @ts-expect-error: a plain ES module script (scripts/), without type declarations
import { buildServerIfChanged, serverDist } from '../scripts/build-server-if-changed.mjs';
import { type LoadResult, load, loadGenerator } from './load.js';
import {
  linkMembers,
  linkPageGroup,
  rssOf,
  type ScaleRow,
  type ScaleSide,
  seedDiscordWorld,
} from './scale-world.js';

const env = process.env;
const SERVERS = Number(env.BENCH_SCALE_SERVERS ?? 1_100);
const MEMBERS = Number(env.BENCH_SCALE_MEMBERS ?? 150_000);
const LINKS = Number(env.BENCH_SCALE_LINKS ?? 45_000);
const MANAGED = Number(env.BENCH_SCALE_MANAGED ?? 50);
const SECONDS = Number(env.BENCH_SCALE_SECONDS ?? 5);
const CONNECTIONS = 10;
const FILL_TIMEOUT_S = Number(env.BENCH_SCALE_FILL_TIMEOUT ?? 1_800);
const RESUME_WINDOW_S = Number(env.BENCH_SCALE_RESUME_WINDOW ?? 15);
const DATABASE_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The product's op 8 pacing for fills (platforms/discord/member-source.ts FILL_SENDS_PER_MINUTE). */
const FILL_SENDS_PER_MINUTE = 100;
const P95_TARGET_MS = 100;

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number | undefined) =>
  bytes === undefined ? '?' : `${Math.round(bytes / 1024 / 1024)} MB`;
const n = (x: number) => x.toLocaleString('en');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  timeoutMs: number,
  everyMs: number,
  check: () => Promise<T | undefined>,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${s(timeoutMs)} waiting for ${what}`);
    await sleep(everyMs);
  }
}

async function one(db: Database, text: string, values?: unknown[]): Promise<Record<string, unknown>> {
  return (await db.executeSql(text, values)).rows[0] ?? {};
}

/** Peak RSS of some processes, sampled every second until stopped. */
function rssSampler(pids: Record<string, number | undefined>) {
  const peak: Record<string, number> = {};
  const timer = setInterval(() => {
    for (const [name, pid] of Object.entries(pids))
      void rssOf(pid).then((rss) => {
        if (rss !== undefined) peak[name] = Math.max(peak[name] ?? 0, rss);
      });
  }, 1000);
  return { peak, stop: () => clearInterval(timer) };
}

/** Rows written per table since transaction id `since` (32-bit xmin; frozen rows are older). */
async function rowsWrittenSince(db: Database, table: string, since: number): Promise<number> {
  return Number(
    (await one(db, `select count(*)::int as n from ${table} where xmin::text::bigint >= $1`, [since])).n,
  );
}

async function tupleStats(db: Database): Promise<Record<string, { ins: number; upd: number; del: number }>> {
  await db.executeSql('select pg_stat_clear_snapshot()');
  const { rows } = await db.executeSql(
    `select relname, n_tup_ins::bigint as ins, n_tup_upd::bigint as upd, n_tup_del::bigint as del
       from pg_stat_user_tables where relname in ('guild_members', 'guild_snapshots', 'guild_member_sync')`,
  );
  return Object.fromEntries(
    rows.map((r) => [r.relname, { ins: Number(r.ins), upd: Number(r.upd), del: Number(r.del) }]),
  );
}

export async function runScaleBench(sides: ScaleSide[] = []): Promise<void> {
  const out = process.stdout;
  const say = (line: string) => out.write(`${line}\n`);
  await buildServerIfChanged();
  const rows: ScaleRow[] = [];
  const stops: (() => Promise<unknown>)[] = [];
  const cleanUp = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    stops.length = 0;
  };
  // Interrupted (Ctrl-C, timeout): the product processes run in process groups of their own and the database
  // would stay; stop and drop them before going.
  const interrupted = (signal: NodeJS.Signals) => {
    say(`\n${signal}: stopping the processes and dropping the database …`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const scratch = await createScratchDatabase(DATABASE_URL).catch((err: Error) => {
      throw new Error(
        `The scale bench needs PostgreSQL at ${DATABASE_URL} (BENCH_DATABASE_URL): ${err.message}`,
      );
    });
    stops.push(() => scratch.drop());
    // The strict simulator (Discord's own limits), in this process; it serves the fill and then sits idle.
    const sim = await startOwnSimulator(0);
    stops.push(() => sim.sim.close());
    const simUrl = sim.sim.url;

    say(
      `\nScale: ${n(SERVERS)} servers, about ${n(MEMBERS)} members, ${n(LINKS)} links (seeding the simulator …)`,
    );
    const seedStart = performance.now();
    const world = await seedDiscordWorld(simUrl, {
      servers: SERVERS,
      totalMembers: MEMBERS,
      managerServers: MANAGED,
    });
    for (const side of sides) await side.seed(simUrl, world);
    const seedMs = performance.now() - seedStart;
    const sizes = world.guilds.map((g) => g.members).sort((a, b) => b - a);
    rows.push({
      what: 'world (bulk servers, members)',
      value: `${n(world.guilds.length)} servers, ${n(world.totalMembers)} members (largest ${n(sizes[0]!)}, tenth ${n(sizes[9] ?? 0)}, median ${n(sizes[Math.floor(sizes.length / 2)]!)}, smallest ${n(sizes.at(-1)!)}); seeded in ${s(seedMs)}`,
    });

    const proxy = await countingProxy(simUrl);
    stops.push(() => proxy.close());
    const sideEnv = Object.assign({}, ...sides.map((side) => side.env())) as Record<string, string>;
    const common = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: scratch.url,
      SECRET_KEY: randomBytes(24).toString('hex'),
      // wrk's c10 would meet the per-user limit (600 a minute); its bookkeeping still runs on every request.
      RATE_LIMIT_USER: '1000000000',
      ...sideEnv,
    };
    const healthPort = await freePort();
    const botHealthUrl = `http://127.0.0.1:${healthPort}`;
    say('Starting the bot,worker and api processes …');
    const t0 = performance.now();
    const started = (p: Promise<ServerProcess>) => p.then((proc) => ({ proc, ms: performance.now() - t0 }));
    const [botStart, apiStart] = await Promise.all([
      started(
        startServerProcess(
          {
            ...common,
            SIMULATOR_URL: simUrl,
            INSTANCE_NAME: 'gateway',
            PROCESS_ROLES: 'bot,worker',
            HEALTH_PORT: String(healthPort),
          },
          { bundleDir: serverDist },
        ),
      ),
      started(
        startServerProcess(
          { ...common, SIMULATOR_URL: proxy.url, INSTANCE_NAME: 'api', PROCESS_ROLES: 'api' },
          { bundleDir: serverDist },
        ),
      ),
    ]);
    const bot = botStart.proc;
    const api = apiStart.proc;
    stops.push(
      () => bot.stop(),
      () => api.stop(),
    );
    const pids = { 'bot,worker': bot.child.pid, api: api.child.pid };
    const sampler = rssSampler(pids);
    stops.push(async () => sampler.stop());

    const readyMs = await until('the bot,worker process to be ready', 120_000, 50, async () => {
      const res = await fetch(`${botHealthUrl}/api/health/ready`);
      return res.ok ? performance.now() - t0 : undefined;
    });
    const rssReady = { bot: await rssOf(pids['bot,worker']), api: await rssOf(pids.api) };
    const db = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
    stops.push(() => db.close());
    const snapshotsMs = await until('every server’s snapshot', 300_000, 100, async () => {
      const r = await one(
        db,
        `select (select count(*)::int from guild_snapshots) as snapshots,
                (select count(*)::int from guild_snapshot_shards) as shards`,
      );
      return Number(r.shards) > 0 && Number(r.snapshots) >= world.guilds.length
        ? performance.now() - t0
        : undefined;
    });
    const apiCallsAtStart = proxy.calls.length;

    // The mirror: every server the bot is in filled once (smallest first, paced by the gateway's send limit).
    const floorMs = ((world.guilds.length * 60) / FILL_SENDS_PER_MINUTE) * 1000;
    say(
      `Ready in ${s(readyMs)}; filling the member mirror (at least ${s(floorMs)} at ${FILL_SENDS_PER_MINUTE} op 8 a minute) …`,
    );
    let lastProgress = performance.now();
    const mirrorMs = await until(
      'the member mirror to be complete',
      FILL_TIMEOUT_S * 1000,
      1000,
      async () => {
        const r = await one(
          db,
          `select count(*)::int as servers, count(m.filled_at)::int as filled
           from guild_snapshots g left join guild_member_sync m using (guild_id)`,
        );
        if (performance.now() - lastProgress > 60_000) {
          lastProgress = performance.now();
          say(
            `  ${s(performance.now() - t0)}: ${n(Number(r.filled))} of ${n(Number(r.servers))} servers filled`,
          );
        }
        return Number(r.filled) === Number(r.servers) ? performance.now() - t0 : undefined;
      },
    );
    const mirrored = Number(
      (await one(db, 'select count(*)::int as n from guild_members where left_at is null')).n,
    );
    const servers = Number((await one(db, 'select count(*)::int as n from guild_snapshots')).n);
    const rssFilled = { bot: await rssOf(pids['bot,worker']), api: await rssOf(pids.api) };
    const linked = await linkMembers(db, LINKS);
    await db.executeSql('analyze');
    rows.push(
      { what: 'world (servers the bot is in, links)', value: `${n(servers)} servers; ${n(linked)} links` },
      {
        what: 'processes listening (/api/health)',
        value: `bot,worker ${s(botStart.ms)}, api ${s(apiStart.ms)}`,
      },
      { what: 'bot,worker ready (gateway + job worker)', value: s(readyMs) },
      { what: 'every server’s snapshot written', value: s(snapshotsMs) },
      {
        what: 'member mirror complete (every server filled)',
        value: `${s(mirrorMs)}, ${n(mirrored)} members (floor at ${FILL_SENDS_PER_MINUTE} op 8 a minute: ${s(floorMs)})`,
      },
      {
        what: 'RSS bot,worker (ready / peak filling / filled)',
        value: `${mb(rssReady.bot)} / ${mb(sampler.peak['bot,worker'])} / ${mb(rssFilled.bot)}`,
      },
      {
        what: 'RSS api (ready / peak filling / filled)',
        value: `${mb(rssReady.api)} / ${mb(sampler.peak.api)} / ${mb(rssFilled.api)}`,
      },
      { what: 'RSS bench (simulator + proxy)', value: mb(process.memoryUsage().rss) },
      { what: 'Discord REST calls of the api process at start', value: n(apiCallsAtStart) },
    );

    // The reads, on the api process, signed in as the manager.
    await upsertUser(db.db, {
      id: world.managerId,
      username: 'scale_manager',
      globalName: 'Scale Manager',
      avatar: null,
    });
    const cookie = `vrclink_session=${await createSession(db.db, world.managerId, 'web')}`;
    const page = world.pageGuildId;
    const pageSize = world.guilds.find((g) => g.id === page)?.members ?? 0;
    await linkPageGroup(simUrl, db, page);
    proxy.calls.length = 0;
    proxy.vrchatCalls.length = 0;
    const listed = await fetch(`${api.url}/api/guilds`, { headers: { cookie } });
    const list = (await listed.json()) as { id: string }[];
    if (!listed.ok || list.length < world.managerGuildIds.length)
      throw new Error(
        `/api/guilds answered ${listed.status} with ${Array.isArray(list) ? list.length : JSON.stringify(list)} servers, expected ${world.managerGuildIds.length}`,
      );
    // `/api/user` (the session and the user, no server) is the baseline: what any signed-in read costs on this
    // machine in the same minute, to read the others against on a loaded machine. It has no target.
    const cases: { name: string; path: string; target?: false }[] = [
      { name: '/api/user (baseline)', path: '/api/user', target: false },
      { name: `/api/guilds (member of ${world.managerGuildIds.length})`, path: '/api/guilds' },
      { name: '/api/guilds/{id}', path: `/api/guilds/${page}` },
      { name: '/api/guilds/{id}/guild_roles', path: `/api/guilds/${page}/guild_roles` },
      { name: `/api/members/{id} (${n(pageSize)} members)`, path: `/api/members/${page}` },
    ];
    for (const c of cases) {
      const res = await fetch(`${api.url}${c.path}`, { headers: { cookie } });
      if (!res.ok) throw new Error(`${c.path} answered ${res.status}: ${await res.text()}`);
    }
    const port = Number(new URL(api.url).port);
    const results: LoadResult[] = [];
    for (const c of cases) {
      const r = await load({
        port,
        path: c.path,
        headers: { cookie },
        connections: CONNECTIONS,
        seconds: SECONDS,
        warmupSeconds: 1,
      });
      if (r.errors) throw new Error(`${c.name}: ${r.errors} of ${r.requests} answers not 2xx`);
      results.push(r);
      const p95 = r.p95Ms ?? Number.NaN;
      say(
        `  ${c.name}: p50 ${r.p50Ms.toFixed(1)} / p95 ${p95.toFixed(1)} ms, ${n(Math.round(r.perSecond))} req/s (load ${loadavg()[0]!.toFixed(2)})`,
      );
      rows.push({
        what: `${c.name} c${CONNECTIONS}`,
        value: `p50 ${r.p50Ms.toFixed(1)} / p95 ${p95.toFixed(1)} / p99 ${r.p99Ms.toFixed(1)} ms, ${n(Math.round(r.perSecond))} req/s`,
        ...(c.target === false
          ? {}
          : { target: { text: `p95 ≤ ${P95_TARGET_MS} ms`, met: p95 <= P95_TARGET_MS } }),
      });
    }
    const calls = [...proxy.calls];
    const byRoute = new Map<string, number>();
    for (const call of calls) byRoute.set(call, (byRoute.get(call) ?? 0) + 1);
    rows.push(
      {
        what: 'Discord REST calls of the api process during the reads',
        value: `${n(calls.length)} for ${n(results.reduce((sum, r) => sum + r.requests, 0))} measured requests${
          calls.length
            ? ` (${[...byRoute]
                .slice(0, 3)
                .map(([k, v]) => `${k} ×${v}`)
                .join(', ')})`
            : ''
        }`,
        target: { text: '0', met: calls.length === 0 },
      },
      {
        what: 'VRChat calls of the api process during the reads',
        value: `${n(proxy.vrchatCalls.length)}${proxy.vrchatCalls.length ? ` (${[...new Set(proxy.vrchatCalls)].slice(0, 3).join(', ')})` : ''}`,
      },
      {
        what: 'RSS after the reads (bot,worker / api)',
        value: `${mb(await rssOf(pids['bot,worker']))} / ${mb(await rssOf(pids.api))}`,
      },
    );

    // A gateway RESUME: the simulator asks the bot to reconnect (op 7); discord.js resumes the session.
    type Sessions = { sessions: { id: string; seq: number }[] };
    const gateway = async () =>
      (await callSimulatorControl(simUrl, 'GET', '/discord/gateway')).body as Sessions;
    // One session per shard (the simulator recommends a shard per 1,000 servers): each must resume.
    const before = (await gateway()).sessions;
    if (before.length === 0) throw new Error('expected a gateway session, found none');
    const since = Number((await one(db, 'select (txid_current() % 4294967296)::bigint as x')).x);
    const statsBefore = await tupleStats(db);
    const resumeStart = performance.now();
    await callSimulatorControl(simUrl, 'POST', '/discord/gateway/reconnect');
    const resumed = await until('the gateway to be back', 60_000, 20, async () => {
      const now = (await gateway()).sessions;
      const back = before.filter((b) => now.some((x) => x.id === b.id && x.seq > b.seq));
      if (back.length === before.length) return { same: true, ms: performance.now() - resumeStart };
      if (now.length >= before.length && before.some((b) => !now.some((x) => x.id === b.id)))
        return { same: false, ms: performance.now() - resumeStart };
      return undefined;
    });
    // Whatever the RESUME sets off (a refill, snapshot rewrites) starts at once; watch it for a while.
    await sleep(RESUME_WINDOW_S * 1000);
    const written = {
      members: await rowsWrittenSince(db, 'guild_members', since),
      snapshots: await rowsWrittenSince(db, 'guild_snapshots', since),
      sync: await rowsWrittenSince(db, 'guild_member_sync', since),
    };
    const statsAfter = await tupleStats(db);
    const delta = (table: string) => {
      const a = statsAfter[table];
      const b = statsBefore[table];
      return a && b ? `+${a.ins - b.ins} ins, +${a.upd - b.upd} upd, +${a.del - b.del} del` : '?';
    };
    rows.push(
      {
        what: 'gateway RESUME (op 7)',
        value: resumed.same
          ? `the same ${before.length === 1 ? 'session' : `${before.length} sessions (one per shard)`} resumed in ${s(resumed.ms)}`
          : `a new session (IDENTIFY) after ${s(resumed.ms)}: not a RESUME`,
        target: { text: 'resumed', met: resumed.same },
      },
      {
        what: `guild_members rows written (${RESUME_WINDOW_S} s after)`,
        value: `${n(written.members)} by xmin (pg_stat: ${delta('guild_members')})`,
        target: { text: '0', met: written.members === 0 },
      },
      {
        what: `guild_snapshots rows written (${RESUME_WINDOW_S} s after)`,
        value: `${n(written.snapshots)} by xmin (pg_stat: ${delta('guild_snapshots')})`,
        target: { text: '0', met: written.snapshots === 0 },
      },
      {
        what: `guild_member_sync rows written (${RESUME_WINDOW_S} s after)`,
        value: `${n(written.sync)} by xmin (a refill would stamp each server it fills)`,
      },
    );

    for (const side of sides)
      rows.push(...(await side.measure({ simulatorUrl: simUrl, db, world, apiUrl: api.url, botHealthUrl })));

    say(
      `\nScale, the Discord side (${loadGenerator()} -t2 -c${CONNECTIONS}, ${SECONDS} s per case; PostgreSQL; ` +
        `bot,worker + api processes of the npm start bundle; load average ${loadavg()[0]!.toFixed(2)})\n`,
    );
    const width = Math.max(...rows.map((r) => r.what.length)) + 2;
    let allMet = true;
    for (const r of rows) {
      if (r.target) allMet &&= r.target.met;
      const target = r.target ? `  [target ${r.target.text}: ${r.target.met ? 'met' : 'NOT met'}]` : '';
      say(`${r.what.padEnd(width)}${r.value}${target}`);
    }
    say(`\nScale targets: ${allMet ? 'all met' : 'NOT all met'}`);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runScaleBench();
