/**
 * World data downloads over real sockets (part of `npm run bench`; BENCH_WORLD_DATA=0 skips it, or alone:
 * `tsx bench/world-data.ts`): the app as production runs it (NODE_ENV=production, LOG_LEVEL=info, logging
 * to /dev/null) serving the world data of a world with 1,000 linked members, next to a bare Node http
 * server sending the same precomputed status, headers and bytes, both loaded by bench/load.ts
 * (BENCH_WORLD_DATA_CONNECTIONS keep-alive connections, default 200) in BENCH_WORLD_DATA_ROUNDS rounds (8)
 * of BENCH_WORLD_DATA_SECONDS (2) per case that alternate the cases, forwards and backwards. Each figure is
 * the median over rounds; the ratio is to the bare server in the same round.
 * Target (#10 §5): at least 0.8 of the bare server's requests/s, p99 under 10 ms.
 */
import '../apps/server/src/polyfills.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { seedGuildIds } from '@vrclink/simulator';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { worlds } from '../apps/server/src/db/schema/index.js';
import { callSimulatorControl } from '../apps/server/src/platforms/testing.js';
import { getSync } from '../apps/server/src/wings/access/index.js';
import { createTestApp } from '../apps/server/test/app.js';
import { type LoadResult, load, loadGenerator } from './load.js';

const MEMBERS = 1000;
const ROUNDS = Number(process.env.BENCH_WORLD_DATA_ROUNDS ?? 8);
const SECONDS = Number(process.env.BENCH_WORLD_DATA_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_WORLD_DATA_CONNECTIONS ?? 200);
const hangout = seedGuildIds.hangout;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export async function runWorldDataBench(): Promise<void> {
  const encodeRoles = [hangout.roles.Verified, hangout.roles['Event Host'], hangout.roles.Guest];
  const t = await createTestApp({
    simulator: true,
    env: { NODE_ENV: 'production', LOG_LEVEL: 'info' },
    log: pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false })),
    beforeStart: (url) =>
      callSimulatorControl(url, 'POST', `/discord/guilds/${hangout.id}/bulk-members`, {
        count: MEMBERS,
        rolesPerMember: 1.5,
        roleIds: encodeRoles,
      }).then(() => undefined),
  });
  const bare = createServer();
  try {
    // The bot fills the member mirror on connect; then 1,000 of its members link a VRChat account.
    for (let i = 0; i < 600 && !(await getSync(t.ctx.db, hangout.id))?.filledAt; i++)
      await new Promise((r) => setTimeout(r, 100));
    await t.ctx.db.execute(sql`
      insert into vrchat_links (discord_user_id, vrc_user_id, vrchat_name, is_verified, age_verification)
      select user_id, 'usr_bench_' || user_id, 'VRC ' || user_id, true,
             case when random() < 0.3 then 'Plus18' else 'Unverified' end
      from guild_members where guild_id = ${hangout.id} order by user_id limit ${MEMBERS}`);
    const [world] = await t.ctx.db
      .insert(worlds)
      .values({ guildId: hangout.id, name: 'Bench world', discordEncodeRoles: encodeRoles })
      .returning();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (t.app.server.address() as AddressInfo).port;
    const path = `/data/v2/${world!.id}`;

    // The first download builds the body; the bare server then sends exactly what the app sends.
    const sample = await fetch(`http://127.0.0.1:${appPort}${path}`);
    const body = Buffer.from(await sample.arrayBuffer());
    if (sample.status !== 200) throw new Error(`${path} answered ${sample.status}: ${body}`);
    const memberCount = JSON.parse(body.toString()).MemberCount as number;
    const headers: Record<string, string> = {};
    sample.headers.forEach((v, k) => {
      if (!['date', 'connection', 'keep-alive'].includes(k)) headers[k] = v;
    });
    bare.on('request', (_req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const barePort = (bare.address() as AddressInfo).port;

    const cases: { name: string; port: number; path: string; headers?: Record<string, string> }[] = [
      { name: 'bare Node http (same bytes)', port: barePort, path },
      { name: 'GET /data/v2/{guid} (fast path)', port: appPort, path },
      // A query string skips the fast path: Fastify's route, answering from the same memory body.
      { name: 'GET /data/v2/{guid}?q (through Fastify)', port: appPort, path: `${path}?q` },
      {
        name: 'GET with If-None-Match (304)',
        port: appPort,
        path,
        headers: { 'if-none-match': headers.etag ?? '' },
      },
    ];
    const results = cases.map(() => [] as LoadResult[]);
    const load1: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Short slices, every other round in reverse order: the machine's load drifts, and each ratio should
      // compare cases measured as close together as possible.
      const order = [...cases.entries()];
      if (round % 2) order.reverse();
      for (const [i, c] of order) {
        const r = await load({ ...c, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 0.5 });
        const notModified = c.headers?.['if-none-match'];
        // A 304 is the expected answer of the conditional case (load.ts counts anything not 2xx).
        if (r.errors && !(notModified && r.errors === r.requests))
          throw new Error(`${c.name}: ${r.errors} of ${r.requests} answers were not 2xx`);
        results[i]!.push(r);
      }
      load1.push(loadavg()[0]!);
    }

    process.stdout.write(
      `\nWorld data over sockets (${loadGenerator()}): a world of ${memberCount.toLocaleString('en')} linked members ` +
        `(${(body.length / 1024).toFixed(1)} KB body), ${CONNECTIONS} keep-alive connections, ${SECONDS} s per case, ` +
        `${ROUNDS} rounds (median); load average during the run ${median(load1).toFixed(2)}\n\n`,
    );
    process.stdout.write(
      `${'case'.padEnd(42)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'× bare'.padStart(9)}\n`,
    );
    for (const [i, c] of cases.entries()) {
      const rs = results[i]!;
      const ratio = median(rs.map((r, round) => r.perSecond / results[0]![round]!.perSecond));
      process.stdout.write(
        `${c.name.padEnd(42)}${median(rs.map((r) => r.perSecond))
          .toFixed(0)
          .padStart(9)}${median(rs.map((r) => r.p50Ms))
          .toFixed(1)
          .padStart(9)}${median(rs.map((r) => r.p99Ms))
          .toFixed(1)
          .padStart(9)}${ratio.toFixed(2).padStart(9)}\n`,
      );
    }
    const fast = results[1]!;
    const ratio = median(fast.map((r, round) => r.perSecond / results[0]![round]!.perSecond));
    const p99 = median(fast.map((r) => r.p99Ms));
    const met = ratio >= 0.8 && p99 < 10;
    process.stdout.write(
      `\nTarget (at least 0.80 × bare, p99 under 10 ms): ${met ? 'met' : 'NOT met'} (${ratio.toFixed(2)} × bare, p99 ${p99.toFixed(1)} ms)\n`,
    );
  } finally {
    bare.close();
    await t.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runWorldDataBench();
