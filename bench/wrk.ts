/**
 * wrk (https://github.com/wg/wrk) as the load generator, when it is installed: `wrk -t2 -c<connections>
 * -d<seconds>s --latency`, the issues' own measuring tool. Its report is parsed into a LoadResult; wrk counts
 * 3xx answers as fine, which the 304 case relies on.
 */
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from './load.js';

let found: boolean | undefined;

/** Whether wrk can run here; on a machine without it, root with apt-get installs it once (Debian's package). */
export function wrkAvailable(): boolean {
  if (found !== undefined) return found;
  const has = () => {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' });
      return true;
    } catch (err) {
      // wrk prints its version and exits 1.
      return (err as { code?: string }).code !== 'ENOENT';
    }
  };
  found = has();
  if (!found && process.getuid?.() === 0 && process.env.BENCH_INSTALL_WRK !== '0') {
    try {
      process.stdout.write('Installing wrk (apt-get install -y wrk) …\n');
      execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'ignore', timeout: 300_000 });
      found = has();
    } catch {
      found = false;
    }
  }
  return found;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function toMs(value: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(value.trim());
  if (!m) throw new Error(`wrk: cannot read the latency ${value}`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

/** Reads wrk's `--latency` report. */
export function parseWrk(report: string, seconds: number): LoadResult {
  const requests = Number(/(\d+) requests in /.exec(report)?.[1] ?? Number.NaN);
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(report)?.[1] ?? Number.NaN);
  const p50 = /^\s+50%\s+(\S+)/m.exec(report)?.[1];
  const p99 = /^\s+99%\s+(\S+)/m.exec(report)?.[1];
  if (!Number.isFinite(requests) || !Number.isFinite(perSecond) || !p50 || !p99)
    throw new Error(`wrk: unexpected report:\n${report}`);
  // The done() hook of `percentileScript` (wrk's --latency report has no p95).
  const p95Us = /^bench-p95-us (\d+)$/m.exec(report)?.[1];
  const errors =
    Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(report)?.[1] ?? 0) +
    Number(/Socket errors:.*?timeout (\d+)/.exec(report)?.[1] ?? 0);
  return {
    requests,
    errors,
    seconds,
    perSecond,
    p50Ms: toMs(p50),
    ...(p95Us === undefined ? {} : { p95Ms: Number(p95Us) / 1000 }),
    p99Ms: toMs(p99),
  };
}

const scripts = new Map<string, string>();
/**
 * A wrk Lua script whose done() prints the 95th percentile (microseconds), which --latency leaves out; with
 * `cookies`, each request sends the next of them (many sessions over the same connections).
 */
function wrkScript(cookies: readonly string[] = []): string {
  const key = cookies.join('\n');
  let script = scripts.get(key);
  if (script) return script;
  script = join(tmpdir(), `bench-wrk-${process.pid}-${scripts.size}.lua`);
  const rotate = cookies.length
    ? `local cookies = { ${cookies.map((c) => JSON.stringify(c)).join(', ')} }\n` +
      'local n = 0\n' +
      'request = function()\n' +
      '  n = n + 1\n' +
      '  return wrk.format(nil, nil, { ["Cookie"] = cookies[n % #cookies + 1] })\n' +
      'end\n'
    : '';
  writeFileSync(
    script,
    `${rotate}done = function(summary, latency, requests)\n` +
      '  io.write(string.format("bench-p95-us %d\\n", latency:percentile(95)))\n' +
      'end\n',
  );
  scripts.set(key, script);
  return script;
}

function runWrk(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  cookies?: readonly string[],
) {
  const args = ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s'];
  args.push('-s', wrkScript(cookies));
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url);
  return new Promise<string>((resolve, reject) =>
    execFile('wrk', args, { timeout: (seconds + 30) * 1000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`wrk failed: ${stderr || err.message}`)) : resolve(stdout),
    ),
  );
}

/** One measured wrk run after a warm-up run (whose figures are dropped). */
export async function wrkLoad(opts: {
  port: number;
  path: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  cookies?: readonly string[];
}): Promise<LoadResult> {
  const url = `http://127.0.0.1:${opts.port}${opts.path}`;
  const headers = opts.headers ?? {};
  if (opts.warmupSeconds > 0)
    await runWrk(url, headers, opts.connections, Math.max(1, Math.round(opts.warmupSeconds)), opts.cookies);
  return parseWrk(await runWrk(url, headers, opts.connections, opts.seconds, opts.cookies), opts.seconds);
}
