import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { expectedXsrfToken, needsXsrfCookie } from './auth.js';
import { XSRF_COOKIE } from './cookies.js';
import { type FastPath, rawHeader, rawHeaderCount } from './fast-path-server.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer is the same for every caller and every request of the process (GET /api/config): replayed
     * from memory once recorded (constant-answers.ts). Only for anonymous routes whose answer never changes.
     */
    constantAnswer?: boolean;
  }
}

/** Headers Node writes itself on every answer: never recorded. */
const NODE_OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Recorded {
  headers: string[];
  body: Buffer;
}

/**
 * Answers that are the same for every caller: recorded once from the route itself after the server listens
 * (Fastify's own status, headers and bytes, security headers included) and replayed before Fastify routes
 * the next requests for them. What the recording cannot vouch for goes to Fastify, whose route decides: a
 * query string, a method other than GET/HEAD, an Authorization header, a browser whose answer would set
 * the XSRF cookie (none yet, or its session's changed), more than one Cookie header.
 */
export class ConstantAnswers implements FastPath {
  private readonly urls = new Set<string>();
  private readonly recorded = new Map<string, Recorded>();
  private parseCookie?: (header: string) => Record<string, string | undefined>;

  constructor(
    private readonly secretKey: Buffer,
    /** Counts a replayed answer (the HTTP metrics count Fastify's in an onResponse hook). */
    private readonly count: (method: string, url: string) => void,
  ) {}

  /** Notes the routes marked `constantAnswer` (register before the routes). */
  collect(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      if (route.config?.constantAnswer && route.method === 'GET') this.urls.add(route.url);
    });
  }

  /** Records each marked route's answer through Fastify itself; until then its requests go to Fastify. */
  async record(app: FastifyInstance): Promise<void> {
    this.parseCookie = (header) => app.parseCookie(header);
    for (const url of this.urls) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie: `${XSRF_COOKIE}=recording` } });
      // Only a plain success is the same for everyone; anything else stays Fastify's to answer.
      if (res.statusCode !== 200 || res.headers['set-cookie'] !== undefined) continue;
      const headers: string[] = [];
      for (const [name, value] of Object.entries(res.headers))
        if (!NODE_OWN_HEADERS.has(name) && value !== undefined) headers.push(name, String(value));
      this.recorded.set(url, { headers, body: res.rawPayload });
    }
  }

  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url;
    if (url === undefined) return false;
    const recorded = this.recorded.get(url);
    if (!recorded) return false;
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const raw = req.rawHeaders;
    if (rawHeader(raw, 'authorization') !== undefined || rawHeaderCount(raw, 'cookie') !== 1) return false;
    const cookies = this.parseCookie!(rawHeader(raw, 'cookie')!);
    if (needsXsrfCookie(cookies, expectedXsrfToken(this.secretKey, cookies))) return false;
    this.count(method, url);
    res.writeHead(200, recorded.headers);
    res.end(method === 'HEAD' ? undefined : recorded.body);
    return true;
  }
}
