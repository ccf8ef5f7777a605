import type { FastifyReply, FastifyRequest } from 'fastify';

/** Requests and 429s of one route, `"<METHOD> <route>"` with the route as a spec template. */
interface RouteCount {
  requests: number;
  rateLimited: number;
}

/**
 * What the Discord API answered, for tests that must prove a client polite: every request under /api,
 * its 429s (any scope), and its invalid requests: 400, 401 and 403 answers (a malformed body, a bad
 * token, a refused action), which a well-behaved bot never causes. 429s are counted apart, not as invalid.
 */
export class ApiCounters {
  private requests = 0;
  private rateLimited = 0;
  private invalid = 0;
  /** When the first and the last counted request were answered (epoch ms; null before any). */
  private firstAt: number | null = null;
  private lastAt: number | null = null;
  private byRoute = new Map<string, RouteCount>();

  record(req: FastifyRequest, reply: FastifyReply): void {
    const template = req.routeOptions.url?.replace(/:(\w+)/g, '{$1}') ?? '(no route)';
    const key = `${req.method} ${template}`;
    let route = this.byRoute.get(key);
    if (!route) {
      route = { requests: 0, rateLimited: 0 };
      this.byRoute.set(key, route);
    }
    this.requests += 1;
    route.requests += 1;
    this.lastAt = Date.now();
    this.firstAt ??= this.lastAt;
    const status = reply.statusCode;
    if (status === 429) {
      this.rateLimited += 1;
      route.rateLimited += 1;
    } else if (status === 400 || status === 401 || status === 403) this.invalid += 1;
  }

  view() {
    return {
      requests: this.requests,
      rateLimited: this.rateLimited,
      invalid: this.invalid,
      firstAt: this.firstAt,
      lastAt: this.lastAt,
      byRoute: Object.fromEntries(this.byRoute),
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
