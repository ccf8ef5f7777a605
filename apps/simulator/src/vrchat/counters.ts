import type { FastifyReply, FastifyRequest } from 'fastify';

export interface RouteCount {
  requests: number;
  rateLimited: number;
}

/**
 * What the product sent the VRChat API, for tests and benchmarks (`GET /control/vrchat/counters`):
 * every answered request, the 429s among them, and the invalid ones (400, 401 and 403: requests VRChat
 * refused as wrong, the kind that gets an account noticed), in all and per route pattern.
 */
export class VrchatCounters {
  requests = 0;
  rateLimited = 0;
  invalid = 0;
  /** When the first and the last counted request were answered (epoch ms; null before any). */
  firstAt: number | null = null;
  lastAt: number | null = null;
  private byRoute = new Map<string, RouteCount>();

  record(req: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    // The route as the spec writes it: /groups/{groupId}/… (Fastify's :groupId, less the /api/1 prefix).
    const pattern = (req.routeOptions.url ?? '(no route)')
      .replace(/^\/api\/1/, '')
      .replace(/:(\w+)/g, '{$1}');
    const key = `${req.method} ${pattern}`;
    const route = this.byRoute.get(key) ?? { requests: 0, rateLimited: 0 };
    this.byRoute.set(key, route);
    this.requests += 1;
    route.requests += 1;
    this.lastAt = Date.now();
    this.firstAt ??= this.lastAt;
    if (status === 429) {
      this.rateLimited += 1;
      route.rateLimited += 1;
    }
    if (status === 400 || status === 401 || status === 403) this.invalid += 1;
  }

  snapshot() {
    return {
      requests: this.requests,
      rateLimited: this.rateLimited,
      invalid: this.invalid,
      firstAt: this.firstAt,
      lastAt: this.lastAt,
      byRoute: Object.fromEntries([...this.byRoute].sort(([a], [b]) => (a < b ? -1 : 1))),
    };
  }

  reset(): void {
    this.requests = 0;
    this.rateLimited = 0;
    this.invalid = 0;
    this.firstAt = null;
    this.lastAt = null;
    this.byRoute.clear();
  }
}
