import { createServer, request, type Server } from 'node:http';
import { freePort } from './free-port.js';

/** The proxy's address, the requests it saw, and how to close it. */
export interface CountingProxy {
  url: string;
  /** Discord REST requests (`/api/v10/…`, OAuth2 included), as `GET /api/v10/guilds/123`. */
  calls: string[];
  /** VRChat requests (`/api/1/…`). */
  vrchatCalls: string[];
  close(): Promise<void>;
}

/**
 * A proxy in front of the simulator for one process only: it forwards everything and writes down each Discord
 * REST request and each VRChat request that process made, so the simulator's own counters (shared by every
 * process) need not be told apart. The api-process tests and the scale bench count an `api` process's calls
 * with it.
 */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const calls: string[] = [];
  const vrchatCalls: string[] = [];
  const server: Server = createServer((req, res) => {
    const call = `${req.method} ${req.url?.split('?')[0]}`;
    if (req.url?.startsWith('/api/v10/') || req.url?.startsWith('/api/oauth2/')) calls.push(call);
    else if (req.url?.startsWith('/api/1/')) vrchatCalls.push(call);
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    vrchatCalls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
