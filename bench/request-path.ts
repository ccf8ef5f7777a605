/**
 * The request path, measured from outside (the first part of `npm run bench`; BENCH_REQUEST_PATH=0 skips it,
 * or alone: `tsx bench/request-path.ts`). Every party runs in its own process:
 * - the product as production runs it, in both of its shapes, one after the other (BENCH_RP_SHAPES, default
 *   `single,api`; BENCH_DATABASE=embedded: `single` only): `single` is what `npm start` runs, one process with
 *   every role on embedded PGlite (the demo's gateway, job worker and scheduler share its event loop); `api` is
 *   an API process (`PROCESS_ROLES=api`) on a throw-away database of the PostgreSQL server at
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), skipped when none is reachable. Each
 *   is the `npm start` bundle, NODE_ENV=production, LOG_LEVEL=info, against simulators run in this process
 *   (idle while measured); a second product process with RATE_LIMIT_USER=0 answers the "limit off" case;
 * - the bare Node anchor (anchors/bare-server.mjs): node:http sending the product's recorded bytes and headers;
 * - nginx (when installed) serving the same bytes from files, one worker;
 * - wrk (-t2, keep-alive), or bench/load.ts's generator in a worker thread where wrk cannot be installed.
 * Each round measures every case on every server, the order reversed every other round; a ratio compares
 * figures of the same round. BENCH_RP_SECONDS (4), BENCH_RP_ROUNDS (2), BENCH_RP_CASES (a regular
 * expression over the case names) tune it; BENCH_RP_NODE_OPTIONS adds Node options to the product processes only,
 * and BENCH_RP_PROFILE=<dir> has each of them write V8 CPU profiles (one per thread) there. To add a case: one entry in `cases` below.
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
import { waitForQuiet } from './settle.js';

const SECONDS = Number(process.env.BENCH_RP_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_RP_ROUNDS ?? 2);
/** Signed-in callers of the `/api/user` cases: so many users, each with so many sessions, taken in turn. */
const USERS = 4;
const SESSIONS_PER_USER = 3;
/** Far above what one of the USERS sends in a window at these rates: each stays under its limit. */
const USER_LIMIT_UNDER = '100000000';

interface Case {
  name: string;
  /** Empty: the demo world's data (`/data/v2/{guid}`). */
  path: string;
  /** Every request sends the next signed-in session's cookies (USERS × SESSIONS_PER_USER of them). */
  sessions?: boolean;
  /** The product process that answers: the per-user limit on (every caller under it) or off (RATE_LIMIT_USER=0). */
  limit?: 'on' | 'off';
  connections: number;
  /**
   * Least requests/s as a share of the bare server's; most p99 as a multiple of the bare server's; least share
   * of another case's ratio (the limiter's bookkeeping against the same reads without it).
   */
  target: { ratio: number; p99?: number; ofCase?: { name: string; share: number } };
}

const cases: Case[] = [
  { name: 'world data c50', path: '', connections: 50, target: { ratio: 0.8, p99: 1.5 } },
  { name: 'world data c200', path: '', connections: 200, target: { ratio: 0.8, p99: 1.5 } },
  // A returning browser: it sends back the XSRF cookie the first answer gave it.
  { name: '/api/config c50', path: '/api/config', connections: 50, target: { ratio: 0.5, p99: 1.5 } },
  { name: '/api/config c200', path: '/api/config', connections: 200, target: { ratio: 0.5, p99: 1.5 } },
  {
    name: '/api/user c50, limit off',
    path: '/api/user',
    sessions: true,
    limit: 'off',
    connections: 50,
    target: { ratio: 0.3 },
  },
  {
    name: '/api/user c50, limit on',
    path: '/api/user',
    sessions: true,
    connections: 50,
    target: { ratio: 0.3, ofCase: { name: '/api/user c50, limit off', share: 0.9 } },
  },
];

interface Shape {
  id: string;
  label: string;
  /**
   * What the shape's product processes need (undefined: the shape cannot run here), given the bench's own
   * simulator (idle while measured): each product process's environment and simulator, and what to stop after.
   */
  setUp(simulator: string): Promise<
    | {
        product(): Promise<{ env: Record<string, string>; simulator: string }>;
        /** Processes of the shape besides the product's own that must be quiet before it is measured. */
        pids?: number[];
        stop(): Promise<void>;
      }
    | undefined
  >;
}

const shapes: Shape[] = [
  {
    id: 'single',
    label: 'one process, every role, embedded PGlite (npm start)',
    // As `npm start`: the simulator in the process too (a gateway of its own: two demo processes on one
    // simulator would take each other's bot session).
    setUp: async () => ({
      async product() {
        const port = await freePort();
        return { env: { SIMULATOR_PORT: String(port) }, simulator: `http://127.0.0.1:${port}` };
      },
      stop: async () => {},
    }),
  },
  {
    id: 'api',
    label: 'an API process (PROCESS_ROLES=api) on PostgreSQL, beside an idle bot,worker process',
    // What an API process runs in production: no gateway, no job worker sharing its event loop. The servers it
    // reads come from the gateway holder (a bot,worker process, as production runs beside it).
    async setUp(simulator) {
      const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
      let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
      try {
        scratch = await createScratchDatabase(url);
      } catch (err) {
        process.stdout.write(
          `No PostgreSQL at ${url} (${(err as Error).message}): the api shape is skipped.\n`,
        );
        return undefined;
      }
      const shared = { DATABASE_URL: scratch.url, SIMULATOR_URL: simulator };
      const bot = await startServerProcess(
        {
          ...shared,
          NODE_ENV: 'production',
          PROCESS_ROLES: 'bot,worker',
          HEALTH_PORT: String(await freePort()),
        },
        { bundleDir: serverDist },
      ).catch(async (err) => {
        await scratch.drop();
        throw err;
      });
      return {
        product: async () => ({ env: { ...shared, PROCESS_ROLES: 'api' }, simulator }),
        pids: bot.child.pid === undefined ? [] : [bot.child.pid],
        async stop() {
          await bot.stop();
          await scratch.drop();
        },
      };
    },
  },
];

interface CaseResult {
  product: number;
  bare: number;
  nginx?: number;
  p99: string;
  ratio: number;
  p99Ratio: number;
  /**
   * A case with an `ofCase` target: the median over rounds of this product's rate ÷ the other case's product
   * rate in the same round. Compared directly, not through two × bare ratios: bare Node's own rate swings
   * more round to round on a small VM than the difference measured.
   */
  ofCase?: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

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

/** Signs `USERS` users in `SESSIONS_PER_USER` times each: every session's Cookie header. */
async function signInMany(product: string, simulator: string): Promise<string[]> {
  const users = [seedUserIds.admin, ...seedUserIds.humans.slice(1, USERS)];
  const cookies: string[] = [];
  for (let s = 0; s < SESSIONS_PER_USER; s++)
    for (const user of users) {
      const { session, xsrf } = await signIn(product, simulator, user);
      cookies.push(`${session}; ${xsrf}`);
    }
  return cookies;
}

/**
 * Node options for the product processes only: BENCH_RP_NODE_OPTIONS (flags to compare, e.g. V8's heap sizes),
 * and with BENCH_RP_PROFILE=<dir> a V8 CPU profile per thread written there when the process stops.
 */
function productNodeOptions(): { NODE_OPTIONS?: string } {
  const profile = process.env.BENCH_RP_PROFILE;
  const options = [
    process.env.BENCH_RP_NODE_OPTIONS,
    profile && `--cpu-prof --cpu-prof-dir=${profile}`,
  ].filter(Boolean);
  return options.length > 0 ? { NODE_OPTIONS: options.join(' ') } : {};
}

/** One product process of a shape, signed in many times. */
async function startProduct(
  shape: Shape,
  own: { env: Record<string, string>; simulator: string },
  userLimit: string,
  stops: (() => Promise<void>)[],
) {
  const product = await startServerProcess(
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      RATE_LIMIT_USER: userLimit,
      // The bench signs a dozen sessions in from one address.
      RATE_LIMIT_ANONYMOUS: '0',
      ...productNodeOptions(),
      ...own.env,
    },
    { bundleDir: serverDist },
  );
  stops.push(async () => {
    // A shape that failed says why: the product's last log lines.
    if (failing) process.stderr.write(`${shape.id} product log:\n${product.output().slice(-3000)}\n`);
    await product.stop();
  });
  const cookies = await signInMany(product.url, own.simulator);
  return { url: product.url, port: Number(new URL(product.url).port), cookies, pid: product.child.pid };
}

/** The demo world's id from its server's world list (the bot may still be connecting: asked again). */
async function demoWorld(product: string, cookie: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${product}/api/guilds/${seedGuildIds.hangout.id}/worlds`, {
      headers: { cookie },
    });
    const world = res.ok ? ((await res.json()) as { worlds: { id: string }[] }).worlds[0]?.id : undefined;
    if (world) return world;
    if (attempt > 900) throw new Error(`no demo world: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let failing = false;

/** Starts one shape's product processes (the per-user limit on and off), measures every case, stops them. */
async function measureShape(
  shape: Shape,
  simulator: string,
  chosen: Case[],
): Promise<{ results: Map<string, CaseResult>; load: number; unsettled: number } | undefined> {
  const stops: (() => Promise<void>)[] = [];
  try {
    const setUp = await shape.setUp(simulator);
    if (!setUp) return undefined;
    stops.push(() => setUp.stop());
    const limitOn = await startProduct(shape, await setUp.product(), USER_LIMIT_UNDER, stops);
    const limitOff = chosen.some((c) => c.limit === 'off')
      ? await startProduct(shape, await setUp.product(), '0', stops)
      : undefined;
    const dataPath = `/data/v2/${await demoWorld(limitOn.url, limitOn.cookies[0]!)}`;
    const pathOf = (c: Case) => c.path || dataPath;
    const browser = { cookie: 'XSRF-TOKEN=bench-xsrf' };
    // The first download builds the body; from then on the product answers it from memory.
    await recordAnswer(`${limitOn.url}${dataPath}`);

    // The anchors serve what the product answers to each case's request (by path: one request per path).
    const answers: Record<string, RecordedAnswer> = {};
    for (const c of chosen)
      answers[pathOf(c)] ??= await recordAnswer(
        `${limitOn.url}${pathOf(c)}`,
        c.sessions ? { cookie: limitOn.cookies[0]! } : browser,
      );
    const bare = await startBareServer(answers);
    stops.push(() => bare.stop());
    const anchorPorts = [bare.port];
    if (nginxAvailable()) {
      const port = await freePort();
      const nginx = await startNginx(port, answers);
      stops.push(() => nginx.stop());
      anchorPorts.push(port);
    }

    // runs[case][server]: server 0 the product, then bare Node, then nginx.
    const runs = chosen.map(() => [0, ...anchorPorts].map(() => [] as LoadResult[]));
    const load1: number[] = [];
    // The product is measured in the steady state production runs in: each case once first, not counted
    // (its code warmed up as a long-running process's is), and each measurement only once the product
    // processes are quiet (settle.ts: start-up work and bursts of background work finished).
    const productPids = [limitOn.pid, limitOff?.pid, ...(setUp.pids ?? [])].filter(
      (pid): pid is number => pid !== undefined,
    );
    const measureOne = async (ci: number, si: number, seconds: number) => {
      const c = chosen[ci]!;
      const product = c.limit === 'off' ? limitOff! : limitOn;
      if (si === 0 && !(await waitForQuiet(productPids)).quiet) unsettled++;
      return load({
        port: si === 0 ? product.port : anchorPorts[si - 1]!,
        path: pathOf(c),
        headers: c.sessions ? undefined : browser,
        cookies: c.sessions ? product.cookies : undefined,
        connections: c.connections,
        seconds,
        warmupSeconds: 1,
      });
    };
    let unsettled = 0;
    for (const [ci] of chosen.entries()) await measureOne(ci, 0, Math.min(SECONDS, 3));
    for (let round = 0; round < ROUNDS; round++) {
      const order = chosen.flatMap((_, ci) => runs[ci]!.map((_, si) => [ci, si] as const));
      if (round % 2) order.reverse();
      for (const [ci, si] of order) {
        const c = chosen[ci]!;
        const r = await measureOne(ci, si, SECONDS);
        if (r.errors)
          throw new Error(`${shape.id}, ${c.name}, server ${si}: ${r.errors} of ${r.requests} not 2xx`);
        runs[ci]![si]!.push(r);
      }
      load1.push(loadavg()[0]!);
    }
    const results = new Map<string, CaseResult>();
    for (const [ci, c] of chosen.entries()) {
      const [prod, anchor, nginx] = runs[ci]! as [LoadResult[], LoadResult[], LoadResult[] | undefined];
      const ofIndex = chosen.findIndex((other) => other.name === c.target.ofCase?.name);
      const ofProd = ofIndex >= 0 ? runs[ofIndex]![0]! : undefined;
      results.set(c.name, {
        ...(ofProd ? { ofCase: median(prod.map((r, round) => r.perSecond / ofProd[round]!.perSecond)) } : {}),
        product: median(prod.map((r) => r.perSecond)),
        bare: median(anchor.map((r) => r.perSecond)),
        ...(nginx ? { nginx: median(nginx.map((r) => r.perSecond)) } : {}),
        p99: `${median(prod.map((r) => r.p99Ms)).toFixed(1)}/${median(anchor.map((r) => r.p99Ms)).toFixed(1)}`,
        ratio: median(prod.map((r, round) => r.perSecond / anchor[round]!.perSecond)),
        p99Ratio: median(prod.map((r, round) => r.p99Ms / anchor[round]!.p99Ms)),
      });
    }
    return { results, load: median(load1), unsettled };
  } catch (err) {
    failing = true;
    throw err;
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/** Whether a case's figures meet its target, and the words saying so. */
function verdict(c: Case, results: Map<string, CaseResult>): { met: boolean; words: string } {
  const r = results.get(c.name)!;
  const needs = [`≥${c.target.ratio}`];
  let met = r.ratio >= c.target.ratio;
  if (c.target.p99 !== undefined) {
    // The median over rounds of product ÷ bare p99 in the same round (the medians shown before it can differ).
    needs.push(`p99 ≤${c.target.p99}× (${r.p99Ratio.toFixed(2)}×)`);
    met &&= r.p99Ratio <= c.target.p99;
  }
  if (c.target.ofCase && r.ofCase !== undefined) {
    needs.push(`≥${c.target.ofCase.share}× limit off (${r.ofCase.toFixed(2)}×)`);
    met &&= r.ofCase >= c.target.ofCase.share;
  }
  return { met, words: `${needs.join(', ')}: ${met ? 'met' : 'NOT met'}` };
}

export async function runRequestPathBench(): Promise<void> {
  await buildServerIfChanged();
  const only = process.env.BENCH_RP_CASES ? new RegExp(process.env.BENCH_RP_CASES) : undefined;
  const chosen = only ? cases.filter((c) => only.test(c.name)) : cases;
  const wanted = (
    process.env.BENCH_RP_SHAPES ?? (process.env.BENCH_DATABASE === 'embedded' ? 'single' : 'single,api')
  ).split(',');
  const out = process.stdout;
  out.write(
    `\nThe request path from outside on Node ${process.version} (${loadGenerator()}, keep-alive, ${SECONDS} s per ` +
      `case and server, ${ROUNDS} rounds alternating; medians; every server in its own process). Per case: ` +
      `product / bare Node${nginxAvailable() ? ' / nginx' : ''} req/s, p99 ms product/bare, × bare, target.\n`,
  );
  let allMet = true;
  // Each shape's table as soon as it is measured.
  const measured: Shape[] = [];
  const sim = await startOwnSimulator(0);
  try {
    for (const shape of shapes.filter((s) => wanted.includes(s.id))) {
      const m = await measureShape(shape, sim.sim.url, chosen);
      if (!m) continue;
      measured.push(shape);
      const { results, load: load1, unsettled } = m;
      const settled = unsettled
        ? `; the product did not quiet down within 30 s before ${unsettled} measurement(s)`
        : '; each product measurement after the product was quiet';
      out.write(`\n${shape.id}: ${shape.label}; load average ${load1.toFixed(2)}${settled}\n`);
      for (const c of chosen) {
        const r = results.get(c.name)!;
        const { met, words } = verdict(c, results);
        allMet &&= met;
        const rates = [r.product, r.bare, ...(r.nginx === undefined ? [] : [r.nginx])].map((x) =>
          x.toFixed(0),
        );
        out.write(
          `  ${c.name.padEnd(26)}${rates.join(' / ').padStart(26)}${r.p99.padStart(14)}${r.ratio.toFixed(2).padStart(7)}  ${words}\n`,
        );
      }
    }
  } finally {
    await sim.sim.close();
  }
  out.write(
    `\nRequest path targets on Node ${process.version} (${measured.map((m) => m.id).join(', ')}): ${allMet ? 'all met' : 'NOT all met'}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runRequestPathBench();
