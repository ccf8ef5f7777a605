import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/** Answers some requests from memory before Fastify routes them (world data, constant answers). */
export interface FastPath {
  /** True when answered here; false leaves the request to Fastify. */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
}

/** Whether the server is draining (drain.ts): then every answer says `Connection: close`. */
export interface DrainState {
  closing: boolean;
}

/**
 * Fastify's `serverFactory`: its own HTTP/1 server settings, with the fast paths in front of its handler.
 * While the server drains, a fast path's answer closes its connection after it, as Fastify's do (drain.ts).
 */
export function fastPathServerFactory(paths: readonly FastPath[], drain: DrainState): FastifyServerFactory {
  return (handler, opts) => {
    const server = createServer((opts.http as ServerOptions | undefined) ?? {}, (req, res) => {
      if (drain.closing) res.shouldKeepAlive = false;
      for (const path of paths) if (path.answer(req, res)) return;
      handler(req, res);
    });
    server.keepAliveTimeout = opts.keepAliveTimeout as number;
    server.requestTimeout = opts.requestTimeout as number;
    server.setTimeout(opts.connectionTimeout as number);
    if ((opts.maxRequestsPerSocket as number) > 0)
      server.maxRequestsPerSocket = opts.maxRequestsPerSocket as number;
    return server;
  };
}

/** A request header from the raw list (`req.headers` would build an object of every header first). */
export function rawHeader(raw: string[], lowerName: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) return raw[i + 1];
  }
  return undefined;
}

/** How many times a request header appears in the raw list. */
export function rawHeaderCount(raw: string[], lowerName: string): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) count++;
  }
  return count;
}
