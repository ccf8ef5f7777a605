/**
 * The member mirror at scale (called by `npm run bench`, or alone: `tsx bench/members.ts`): a server of
 * BENCH_MEMBERS (default 100,000) members seeded silently in the simulator, filled through op 8 chunks
 * and through the REST member list (time and memory), then the Members tab searched over HTTP: p50/p95
 * of a 2-character prefix, an infix and an exact id next to GET /api/health in the same run. On PGlite,
 * and on PostgreSQL too when BENCH_PG_URL (or DATABASE_URL) names a server.
 */
import '../apps/server/src/polyfills.js';
import { performance } from 'node:perf_hooks';
import { seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { sql } from 'drizzle-orm';
import { callSimulatorControl } from '../apps/server/src/platforms/testing.js';
import { fillGuild, getSync, type MirrorDeps } from '../apps/server/src/wings/access/index.js';
import { createTestApp, signIn, type TestApp } from '../apps/server/test/app.js';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 200);
const hangout = seedGuildIds.hangout.id;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Runs `work` while sampling the heap and RSS every 25 ms: time and peak growth over the start. */
async function profile(work: () => Promise<void>) {
  global.gc?.();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 25);
  const start = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return { ms: performance.now() - start, heap: peakHeap - base.heapUsed, rss: peakRss - base.rss };
}

async function rowCount(t: TestApp): Promise<number> {
  const res = await t.ctx.db.execute(
    sql`select count(*)::int as n from guild_members where guild_id = ${hangout}`,
  );
  return Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n);
}

async function emptyMirror(t: TestApp) {
  await t.ctx.db.execute(sql`delete from guild_members where guild_id = ${hangout}`);
  await t.ctx.db.execute(sql`delete from guild_member_sync where guild_id = ${hangout}`);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function timeHttp(url: string, cookie: string | undefined, n: number) {
  const headers = cookie ? { cookie } : undefined;
  for (let i = 0; i < 20; i++) await (await fetch(url, { headers })).arrayBuffer();
  const times: number[] = [];
  let body: unknown;
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers });
    body = await res.json();
    times.push(performance.now() - start);
    if (res.status >= 400) throw new Error(`${url} answered ${res.status}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), body };
}

export async function benchOne(label: string): Promise<string[]> {
  const lines: string[] = [];
  const t = await createTestApp({
    simulator: true,
    limits: 'lax', // the bench measures the product, not the simulators' limits
    // The bench measures searches, not the per-user rate limit (600 a minute by default).
    env: { RATE_LIMIT_USER: '1000000000' },
    beforeStart: async (url) => {
      await callSimulatorControl(url, 'POST', `/discord/guilds/${hangout}/bulk-members`, {
        count: MEMBERS,
        rolesPerMember: 1.5,
      });
      // Measure op 8 as often as the bench asks (Discord allows once per guild per 30 s).
      await callSimulatorControl(url, 'PATCH', '/discord/rate-limits', { requestMembersIntervalMs: 0 });
    },
  });
  try {
    const source = t.platforms?.bot.members;
    if (!source) throw new Error('no platforms');
    const deps: MirrorDeps = { db: t.ctx.db, log: t.ctx.log, source };
    // The bot fills on connect; wait for that, then measure fills from an empty mirror.
    for (let i = 0; i < 600 && !(await getSync(t.ctx.db, hangout))?.filledAt; i++)
      await new Promise((r) => setTimeout(r, 100));

    await emptyMirror(t);
    const gateway = await profile(() => fillGuild(deps, hangout));
    lines.push(
      `${label}: fill through op 8 chunks: ${(await rowCount(t)).toLocaleString('en')} members in ` +
        `${(gateway.ms / 1000).toFixed(1)} s, peak heap +${mb(gateway.heap)}, RSS +${mb(gateway.rss)}`,
    );
    await emptyMirror(t);
    const restOnly: MirrorDeps = { ...deps, source: { ...source, gatewayHasMembersIntent: () => false } };
    const rest = await profile(() => fillGuild(restOnly, hangout));
    lines.push(
      `${label}: fill through REST pages: ${(await rowCount(t)).toLocaleString('en')} members in ` +
        `${(rest.ms / 1000).toFixed(1)} s (Discord's 50 requests/s), peak heap +${mb(rest.heap)}, RSS +${mb(rest.rss)}`,
    );
    await t.ctx.db.execute(sql`analyze guild_members`);

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const admin = await signIn(t, { id: seedUserIds.admin, username: 'demo_admin' });
    const cookie = `vrclink_session=${admin.session}`;
    const someone = (await t.ctx.db.execute(
      sql`select user_id from guild_members where guild_id = ${hangout} order by user_id desc limit 1`,
    )) as unknown as { rows: { user_id: string }[] };
    const members = `${base}/api/members/${hangout}`;
    const cases: [string, string, string | undefined][] = [
      ['GET /api/health (baseline)', `${base}/api/health`, undefined],
      ['2-character prefix (DiscordName=sl)', `${members}?searchBy=DiscordName&search=sl`, cookie],
      ['infix (DiscordName=otter)', `${members}?searchBy=DiscordName&search=otter`, cookie],
      ['exact id (DiscordId)', `${members}?searchBy=DiscordId&search=${someone.rows[0]?.user_id}`, cookie],
      ['everyone, page 1 (no search)', `${members}?page=1`, cookie],
      ['everyone, page 2000', `${members}?page=2000`, cookie],
    ];
    lines.push(`${label}: Members tab over HTTP, ${SEARCHES} sequential requests each`);
    for (const [name, url, c] of cases) {
      const r = await timeHttp(url, c, SEARCHES);
      const total = (r.body as { totalCount?: number }).totalCount;
      lines.push(
        `  ${name.padEnd(38)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms` +
          (total === undefined ? '' : `  (${total.toLocaleString('en')} found)`),
      );
    }
  } finally {
    await t.close();
  }
  return lines;
}

export async function runMemberBench(): Promise<void> {
  process.stdout.write(`\nMember mirror: a server of ${MEMBERS.toLocaleString('en')} members\n`);
  for (const line of await benchOne('PGlite')) process.stdout.write(`${line}\n`);
  const pgUrl = process.env.BENCH_PG_URL ?? process.env.DATABASE_URL;
  if (!pgUrl) {
    process.stdout.write('PostgreSQL: skipped (set BENCH_PG_URL)\n');
    return;
  }
  const before = process.env.DATABASE_URL;
  process.env.DATABASE_URL = pgUrl;
  try {
    for (const line of await benchOne('PostgreSQL')) process.stdout.write(`${line}\n`);
  } finally {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runMemberBench();
