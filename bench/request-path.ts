/**
 * The request path, measured from outside (the first part of `npm run bench`; BENCH_REQUEST_PATH=0 skips it,
 * or alone: `tsx bench/request-path.ts`). Every party runs in its own process:
 * - the product as production runs it: the `npm start` bundle, NODE_ENV=production, LOG_LEVEL=info, against
 *   simulators (run in this process, idle while measured), as an API process (`PROCESS_ROLES=api`) on a throw-away
 *   database of the PostgreSQL server at BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test):
 *   API-only processes exist only beside others, which share work through PostgreSQL. BENCH_DATABASE=embedded,
 *   or no PostgreSQL reachable, measures the single-process shape instead: embedded PGlite, every role;
 * - the bare Node anchor (anchors/bare-server.mjs): node:http sending the product's recorded bytes and headers;
 * - nginx (when installed) serving the same bytes from files, one worker;
 * - wrk (-t2, keep-alive), or bench/load.ts's generator in a worker thread where wrk cannot be installed.
 * Each round measures every case on every server, the order reversed every other round; a ratio compares
 * figures of the same round. BENCH_RP_SECONDS (4), BENCH_RP_ROUNDS (2), BENCH_RP_CASES (a regular
 * expression over the case names) tune it. To add a case: one entry in `cases` below.
 */
import { loadavg } from 'node:os';
import { seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { startOwnSimulator } from '../apps/server/src/demo.js';
import { createScratchDatabase } from '../apps/server/test/db.js';
import { freePort, startServerProcess } from '../apps/server/test/server-process.js';
// @ts-expect-error: a plain ES module script (scripts/), without type declarations
import { buildServerIfChanged, serverDist } from '../scripts/build-server-if-changed.mjs';
import { nginxAvailable, startNginx } from './anchors/nginx.js';
import { type RecordedAnswer, recordAnswer, startBareServer } from './anchors/recorded.js';
import { type LoadResult, load, loadGenerator } from './load.js';

const SECONDS = Number(process.env.BENCH_RP_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_RP_ROUNDS ?? 2);

interface Case {
  name: string;
  path: string;
  headers?: Record<string, string>;
  connections: number;
  /** Least requests/s as a share of the bare server's; and most p99 as a multiple of the bare server's. */
  target: { ratio: number; p99?: number };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Signs in over HTTP as a browser does: the product's login address, the simulated consent form, the callback. */
/** Signs in through the consent page: the session cookie and the session's XSRF cookie (`name=value` each). */
async function signIn(
  product: string,
  simulator: string,
  userId: string,
): Promise<{ session: string; xsrf: string }> {
  const login = await fetch(`${product}/api/login`);
  const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const authorize = new URL(((await login.json()) as { redirectUri: string }).redirectUri);
  const form = new URLSearchParams(authorize.searchParams);
  form.set('user_id', userId);
  form.set('decision', 'authorize');
  const consent = await fetch(`${simulator}/oauth2/authorize`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  const back = new URL(consent.headers.get('location') ?? '', product);
  const xsrf = 'bench-xsrf';
  const callback = await fetch(`${product}/api/login/callback`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: [...cookies.filter((c) => !c.startsWith('XSRF-TOKEN=')), `XSRF-TOKEN=${xsrf}`].join('; '),
      'x-xsrf-token': xsrf,
    },
    body: JSON.stringify({ code: back.searchParams.get('code'), state: back.searchParams.get('state') }),
  });
  const set = callback.headers.getSetCookie();
  const session = set.find((c) => c.startsWith('vrclink_session='));
  // The last XSRF cookie set is the session's own (http/auth.ts binds the pair to the session).
  const bound = set.filter((c) => c.startsWith('XSRF-TOKEN=')).at(-1);
  if (!callback.ok || !session || !bound)
    throw new Error(`sign-in failed: ${callback.status} ${await callback.text()}`);
  return { session: session.split(';')[0]!, xsrf: bound.split(';')[0]! };
}

/** A throw-away database on the bench's PostgreSQL server, or undefined when it should not or cannot be used. */
async function benchDatabase() {
  if (process.env.BENCH_DATABASE === 'embedded') return undefined;
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  try {
    return await createScratchDatabase(url);
  } catch (err) {
    process.stdout.write(`No PostgreSQL at ${url} (${(err as Error).message}): measuring embedded PGlite.\n`);
    return undefined;
  }
}

export async function runRequestPathBench(): Promise<void> {
  await buildServerIfChanged();
  const sim = await startOwnSimulator(0);
  const scratch = await benchDatabase();
  const shape = scratch
    ? 'an API process (PROCESS_ROLES=api) on PostgreSQL'
    : 'one process with every role on embedded PGlite';
  const product = await startServerProcess(
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      SIMULATOR_URL: sim.sim.url,
      // The per-user limit (600 a minute) would answer 429s; its bookkeeping still runs on every request.
      RATE_LIMIT_USER: '1000000000',
      // What an API process runs in production: no gateway, no job worker sharing its event loop. On PGlite the
      // one process is everything (`npm start`).
      ...(scratch ? { PROCESS_ROLES: 'api', DATABASE_URL: scratch.url } : {}),
    },
    { bundleDir: serverDist },
  );
  const stops: (() => Promise<void>)[] = [
    async () => scratch?.drop(),
    () => sim.sim.close(),
    () => product.stop(),
  ];
  try {
    const { session, xsrf } = await signIn(product.url, sim.sim.url, seedUserIds.admin);
    // A returning browser: it holds the XSRF cookie the first answer gave it (when signed in, its session's).
    const browser = { cookie: 'XSRF-TOKEN=bench-xsrf' };
    const signedIn = { cookie: `${session}; ${xsrf}` };
    const worlds = await fetch(`${product.url}/api/guilds/${seedGuildIds.hangout.id}/worlds`, {
      headers: signedIn,
    });
    const world = ((await worlds.json()) as { worlds: { id: string }[] }).worlds[0]!.id;
    const dataPath = `/data/v2/${world}`;
    // The first download builds the body; from then on the product answers it from memory.
    await recordAnswer(`${product.url}${dataPath}`);

    const all: Case[] = [
      { name: 'world data c50', path: dataPath, connections: 50, target: { ratio: 0.8, p99: 2 } },
      { name: 'world data c200', path: dataPath, connections: 200, target: { ratio: 0.8 } },
      {
        name: '/api/config c50',
        path: '/api/config',
        headers: browser,
        connections: 50,
        target: { ratio: 0.5 },
      },
      {
        name: '/api/config c200',
        path: '/api/config',
        headers: browser,
        connections: 200,
        target: { ratio: 0.5 },
      },
      {
        name: '/api/user signed in c50',
        path: '/api/user',
        headers: signedIn,
        connections: 50,
        target: { ratio: 0.3 },
      },
    ];
    const only = process.env.BENCH_RP_CASES ? new RegExp(process.env.BENCH_RP_CASES) : undefined;
    const cases = only ? all.filter((c) => only.test(c.name)) : all;

    // The anchors serve what the product answers to each case's request (by path: one request per path).
    const answers: Record<string, RecordedAnswer> = {};
    for (const c of cases) answers[c.path] ??= await recordAnswer(`${product.url}${c.path}`, c.headers);
    const bare = await startBareServer(answers);
    stops.push(() => bare.stop());
    const servers: { name: string; port: number }[] = [
      { name: 'product', port: Number(new URL(product.url).port) },
      { name: 'bare Node', port: bare.port },
    ];
    if (nginxAvailable()) {
      const port = await freePort();
      const nginx = await startNginx(port, answers);
      stops.push(() => nginx.stop());
      servers.push({ name: 'nginx', port });
    }

    const results = cases.map(() => servers.map(() => [] as LoadResult[]));
    const load1: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = cases.flatMap((_, ci) => servers.map((_, si) => [ci, si] as const));
      if (round % 2) order.reverse();
      for (const [ci, si] of order) {
        const c = cases[ci]!;
        const r = await load({
          port: servers[si]!.port,
          path: c.path,
          headers: c.headers,
          connections: c.connections,
          seconds: SECONDS,
          warmupSeconds: 1,
        });
        if (r.errors)
          throw new Error(`${c.name} on ${servers[si]!.name}: ${r.errors} of ${r.requests} not 2xx`);
        results[ci]![si]!.push(r);
      }
      load1.push(loadavg()[0]!);
    }

    const out = process.stdout;
    out.write(
      `\nThe request path from outside, the product as ${shape} (${loadGenerator()}, keep-alive, ${SECONDS} s per case and server, ` +
        `${ROUNDS} rounds alternating; medians; load average ${median(load1).toFixed(2)}). Every server in its own process.\n\n`,
    );
    const cols = ['case', ...servers.map((s) => `${s.name} req/s`), 'p99 ms (prod/bare)', '× bare', 'target'];
    const widths = [26, ...servers.map(() => 16), 20, 8, 27];
    const row = (cells: string[]) =>
      `${cells.map((cell, i) => (i ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('')}\n`;
    out.write(row(cols));
    let allMet = true;
    for (const [ci, c] of cases.entries()) {
      const [prod, anchor] = [results[ci]![0]!, results[ci]![1]!];
      const ratio = median(prod.map((r, round) => r.perSecond / anchor[round]!.perSecond));
      const p99Ratio = median(prod.map((r, round) => r.p99Ms / anchor[round]!.p99Ms));
      const met = ratio >= c.target.ratio && (c.target.p99 === undefined || p99Ratio <= c.target.p99);
      allMet &&= met;
      const p99 = `${median(prod.map((r) => r.p99Ms)).toFixed(1)}/${median(anchor.map((r) => r.p99Ms)).toFixed(1)}`;
      const target = `≥${c.target.ratio}${c.target.p99 ? `, p99 ≤${c.target.p99}×` : ''}: ${met ? 'met' : 'NOT met'}`;
      out.write(
        row([
          c.name,
          ...servers.map((_, si) => median(results[ci]![si]!.map((r) => r.perSecond)).toFixed(0)),
          p99,
          ratio.toFixed(2),
          target,
        ]),
      );
    }
    out.write(`\nRequest path targets: ${allMet ? 'all met' : 'NOT all met'}\n`);
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runRequestPathBench();
