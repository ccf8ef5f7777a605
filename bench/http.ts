/**
 * The request path over real sockets (the first part of `npm run bench`; BENCH_HTTP=0 skips it, or alone:
 * `tsx bench/http.ts`): the app as production runs it (NODE_ENV=production, LOG_LEVEL=info, logging to
 * /dev/null) listening on 127.0.0.1, next to a bare Node http server that sends the same bytes as
 * GET /api/config, both loaded by bench/load.ts (keep-alive, BENCH_HTTP_CONNECTIONS connections) in rounds
 * that alternate the cases; each figure is the median over rounds of requests/s as a ratio to the bare
 * server in the same round.
 */
import '../apps/server/src/polyfills.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seedUserIds } from '@vrclink/simulator';
import pino from 'pino';
import { seedDemoData } from '../apps/server/src/demo-seed.js';
import { createTestApp, signIn } from '../apps/server/test/app.js';
import { type LoadResult, load, loadGenerator } from './load.js';

const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 50);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export async function runHttpBench(): Promise<void> {
  const t = await createTestApp({
    simulator: true,
    // Production settings; the rate limit stays on (its upsert is part of every signed-in request), out of reach.
    env: { NODE_ENV: 'production', LOG_LEVEL: 'info', RATE_LIMIT_USER: '1000000000' },
    log: pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false })),
  });
  await seedDemoData(t.ctx.db);
  const admin = await signIn(t, { id: seedUserIds.admin, username: 'demo_admin' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const appPort = (t.app.server.address() as AddressInfo).port;

  // The bare server answers with GET /api/config's exact status, headers and body.
  const sample = await fetch(`http://127.0.0.1:${appPort}/api/config`);
  const body = Buffer.from(await sample.arrayBuffer());
  const headers: Record<string, string> = {};
  sample.headers.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive', 'set-cookie'].includes(k)) headers[k] = v;
  });
  const setCookie = sample.headers.getSetCookie();
  const bare = createServer((_req, res) => {
    res.writeHead(sample.status, setCookie.length ? { ...headers, 'set-cookie': setCookie } : headers);
    res.end(body);
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const barePort = (bare.address() as AddressInfo).port;

  const browser = { cookie: `vrclink_session=${admin.session}; XSRF-TOKEN=bench-xsrf` };
  const cases: { name: string; port: number; path: string; headers?: Record<string, string> }[] = [
    { name: 'bare Node http (same bytes as /api/config)', port: barePort, path: '/api/config' },
    { name: 'GET /api/config (no cookie)', port: appPort, path: '/api/config' },
    { name: 'GET /api/health (no cookie; select 1)', port: appPort, path: '/api/health' },
    { name: 'GET /api/user (session cookie)', port: appPort, path: '/api/user', headers: browser },
    {
      name: 'GET /api/users/profile (session cookie)',
      port: appPort,
      path: '/api/users/profile',
      headers: browser,
    },
  ];
  // BENCH_HTTP_CASES (a regular expression) keeps some cases besides the bare server, e.g. to profile one.
  const only = process.env.BENCH_HTTP_CASES ? new RegExp(process.env.BENCH_HTTP_CASES) : undefined;
  if (only) cases.splice(1, cases.length, ...cases.slice(1).filter((c) => only.test(c.name)));
  const results = cases.map(() => [] as LoadResult[]);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, c] of cases.entries()) {
        const r = await load({ ...c, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 1 });
        if (r.errors) throw new Error(`${c.name}: ${r.errors} of ${r.requests} answers were not 2xx`);
        results[i]!.push(r);
      }
    }
  } finally {
    bare.close();
    await t.close();
  }

  process.stdout.write(
    `\nHTTP over sockets (${loadGenerator()}): ${CONNECTIONS} keep-alive connections, ${SECONDS} s per case, ${ROUNDS} rounds (median)\n\n`,
  );
  process.stdout.write(
    `${'case'.padEnd(46)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'× bare'.padStart(9)}\n`,
  );
  for (const [i, c] of cases.entries()) {
    const rs = results[i]!;
    const ratio = median(rs.map((r, round) => r.perSecond / results[0]![round]!.perSecond));
    process.stdout.write(
      `${c.name.padEnd(46)}${median(rs.map((r) => r.perSecond))
        .toFixed(0)
        .padStart(9)}${median(rs.map((r) => r.p50Ms))
        .toFixed(1)
        .padStart(9)}${median(rs.map((r) => r.p99Ms))
        .toFixed(1)
        .padStart(9)}${ratio.toFixed(2).padStart(9)}\n`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runHttpBench();
