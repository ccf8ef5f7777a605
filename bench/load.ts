/**
 * The benches' load generator: wrk when it is installed (or can be; bench/wrk.ts), else a small wrk-like one
 * (no dependency): keep-alive connections over raw sockets, each sending one request and waiting for the
 * whole answer (Content-Length or chunked) before the next, in a worker thread. BENCH_LOAD=wrk or
 * BENCH_LOAD=internal picks one.
 */
import { Worker } from 'node:worker_threads';
import { wrkAvailable, wrkLoad } from './wrk.js';

/** Which generator `load` uses: 'wrk' or 'internal'. */
export function loadGenerator(): 'wrk' | 'internal' {
  const chosen = process.env.BENCH_LOAD;
  if (chosen === 'internal') return 'internal';
  if (wrkAvailable()) return 'wrk';
  if (chosen === 'wrk') throw new Error('BENCH_LOAD=wrk but wrk is not installed (apt-get install wrk).');
  return 'internal';
}

export interface LoadResult {
  requests: number;
  /** Answers with a status other than 2xx. */
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  /** wrk (through its Lua done() hook) and the internal generator report it. */
  p95Ms?: number;
  p99Ms: number;
}

// Plain JavaScript (eval'd in the worker): no TypeScript loader needed there.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const { port, requests: texts, connections, seconds, warmupSeconds } = workerData;
const reqs = texts.map((t) => Buffer.from(t, 'latin1'));
let next = 0;
const CRLF2 = Buffer.from('\\r\\n\\r\\n');
const LAST_CHUNK = Buffer.from('0\\r\\n\\r\\n');
let counting = false, stopped = false, requests = 0, errors = 0;
const latencies = [];
let open = connections;
function finish() {
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0;
  parentPort.postMessage({ requests, errors, p50Ms: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99) });
}
function connect() {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let buf = Buffer.alloc(0);
  let sent = 0;
  const send = () => { sent = performance.now(); socket.write(reqs[next++ % reqs.length]); };
  socket.on('connect', send);
  socket.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      const end = buf.indexOf(CRLF2);
      if (end < 0) return;
      const head = buf.subarray(0, end).toString('latin1');
      const status = Number(head.slice(9, 12));
      const m = /\\r\\ncontent-length:\\s*(\\d+)/i.exec(head);
      let total;
      if (m) total = end + 4 + Number(m[1]);
      else if (/\\r\\ntransfer-encoding:\\s*chunked/i.test(head)) {
        const last = buf.indexOf(LAST_CHUNK, end + 4);
        if (last < 0) return;
        total = last + LAST_CHUNK.length;
      } else total = end + 4;
      if (buf.length < total) return;
      buf = buf.subarray(total);
      if (counting) {
        requests++;
        if (status < 200 || status > 299) errors++;
        latencies.push(performance.now() - sent);
      }
      if (stopped) { socket.destroy(); return; }
      send();
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => { if (--open === 0) finish(); });
}
for (let i = 0; i < connections; i++) connect();
setTimeout(() => { counting = true; }, warmupSeconds * 1000);
setTimeout(() => { stopped = true; }, (warmupSeconds + seconds) * 1000);
`;

/** GET `path` on 127.0.0.1:`port` from `connections` keep-alive connections for `seconds` (after a warm-up). */
export function load(opts: {
  port: number;
  path: string;
  headers?: Record<string, string>;
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
  /** Each request sends the next of these as its Cookie header (many sessions over the same connections). */
  cookies?: readonly string[];
}): Promise<LoadResult> {
  const seconds = opts.seconds ?? 3;
  if (loadGenerator() === 'wrk')
    return wrkLoad({
      port: opts.port,
      path: opts.path,
      headers: opts.headers,
      connections: opts.connections ?? 50,
      seconds: Math.max(1, Math.round(seconds)),
      warmupSeconds: opts.warmupSeconds ?? 0.5,
      cookies: opts.cookies,
    });
  const requestWith = (cookie?: string) => {
    const headers = { host: `127.0.0.1:${opts.port}`, ...opts.headers, ...(cookie ? { cookie } : {}) };
    return `GET ${opts.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
  };
  const requests = opts.cookies?.length ? opts.cookies.map(requestWith) : [requestWith()];
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      port: opts.port,
      requests,
      connections: opts.connections ?? 50,
      seconds,
      warmupSeconds: opts.warmupSeconds ?? 0.5,
    },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once(
      'message',
      (m: { requests: number; errors: number; p50Ms: number; p95Ms: number; p99Ms: number }) => {
        void worker.terminate();
        resolve({ ...m, seconds, perSecond: m.requests / seconds });
      },
    );
  });
}
