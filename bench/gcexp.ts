import { execFileSync } from 'node:child_process';
import { seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { startOwnSimulator } from '../apps/server/src/demo.js';
import { startServerProcess } from '../apps/server/test/server-process.js';
// @ts-expect-error plain script
import { buildServerIfChanged, serverDist } from '../scripts/build-server-if-changed.mjs';

await buildServerIfChanged();
const sim = await startOwnSimulator(0);
const product = await startServerProcess(
  { NODE_ENV: 'production', LOG_LEVEL: 'info', SIMULATOR_URL: sim.sim.url, PROCESS_ROLES: 'api',
    RATE_LIMIT_USER: '1000000000', NODE_OPTIONS: process.env.PRODUCT_NODE_OPTIONS ?? '' },
  { bundleDir: serverDist },
);
// any world: sign in is needed to list; use the demo seed's known world via the public listing? list through the db-less path: sign-in skipped, use admin API key? simpler: fetch the guild worlds with a session
const login = await fetch(`${product.url}/api/login`);
const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!);
const authorize = new URL(((await login.json()) as { redirectUri: string }).redirectUri);
const form = new URLSearchParams(authorize.searchParams);
form.set('user_id', seedUserIds.admin); form.set('decision', 'authorize');
const consent = await fetch(`${sim.sim.url}/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
const back = new URL(consent.headers.get('location') ?? '', product.url);
const cb = await fetch(`${product.url}/api/login/callback`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: [...cookies.filter((c) => !c.startsWith('XSRF-TOKEN=')), 'XSRF-TOKEN=x'].join('; '), 'x-xsrf-token': 'x' }, body: JSON.stringify({ code: back.searchParams.get('code'), state: back.searchParams.get('state') }) });
const session = cb.headers.getSetCookie().find((c) => c.startsWith('vrclink_session='))!.split(';')[0];
const worlds = await fetch(`${product.url}/api/guilds/${seedGuildIds.hangout.id}/worlds`, { headers: { cookie: `${session}; XSRF-TOKEN=x` } });
const world = ((await worlds.json()) as { worlds: { id: string }[] }).worlds[0]!.id;
const url = `${product.url}/data/v2/${world}`;
await fetch(url);
const before = product.output().length;
const mem = await fetch(url);
console.log('status', mem.status);
console.log(execFileSync('wrk', ['-t2', '-c200', '-d5s', url]).toString().split('\n').filter((l) => /Requests\/sec|Latency/.test(l)).join('\n'));
const out = product.output();
console.log(out.split("\n").filter((l) => /GCREPORT/.test(l)).slice(-4).join("\n"));

const { recordAnswer } = await import('./anchors/recorded.js');
const { spawn } = await import('node:child_process');
const { writeFileSync } = await import('node:fs');
const ans = await recordAnswer(url);
writeFileSync('/tmp/answers.json', JSON.stringify({ [`/data/v2/${world}`]: ans }));
const bare = spawn(process.execPath, ['bench/anchors/bare-server.mjs', '/tmp/answers.json'], { env: { ...process.env, NODE_OPTIONS: process.env.PRODUCT_NODE_OPTIONS ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
let bl = '';
bare.stderr.on('data', (c) => { bl += c; });
const port = await new Promise<number>((r) => bare.stdout.on('data', (c) => { const m = /listening (\d+)/.exec(String(c)); if (m) r(Number(m[1])); }));
const burl = `http://127.0.0.1:${port}/data/v2/${world}`;
execFileSync('wrk', ['-t2', '-c200', '-d2s', burl]);
console.log('BARE', execFileSync('wrk', ['-t2', '-c200', '-d5s', burl]).toString().split('\n').filter((l) => /Requests\/sec|Latency/.test(l)).join('\n'));
await new Promise((r) => setTimeout(r, 2100));
console.log(bl.split('\n').filter((l) => /GCREPORT/.test(l)).slice(-2).join('\n'));
bare.kill();
console.log('PRODUCT again', execFileSync('wrk', ['-t2', '-c200', '-d5s', url]).toString().split('\n').filter((l) => /Requests\/sec|Latency/.test(l)).join('\n'));
await new Promise((r) => setTimeout(r, 2100));
console.log(product.output().split('\n').filter((l) => /GCREPORT/.test(l)).slice(-2).join('\n'));
await product.stop(); await sim.sim.close();
