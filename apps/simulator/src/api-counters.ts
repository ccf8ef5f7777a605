import type { FastifyReply, FastifyRequest } from 'fastify';

/** Requests and 429s of one route, `"<METHOD> <route>"` with the route as a spec template. */
export interface RouteCount {
  requests: number;
  rateLimited: number;
}

/**
 * What a simulated platform answered the product, for tests and benchmarks: every request, the 429s among
 * them, and the invalid ones (400, 401 and 403: a malformed body, a bad token, a refused action, which a
 * well-behaved client never causes), in all and per route as the spec writes it.
 */
export class ApiCounters {
  private requests = 0;
  private rateLimited = 0;
  private invalid = 0;
  /** When the first and the last counted request were answered (epoch ms; null before any). */
  private firstAt: number | null = null;
  private lastAt: number | null = null;
  private byRoute = new Map<string, RouteCount>();
  /** Per signed-in account (VRChat: the user id of the session that made the request), when counted. */
  private byAccount = new Map<
    string,
    { requests: number; rateLimited: number; byRoute: Map<string, RouteCount> }
  >();

  /**
   * @param routePrefix the part of Fastify's route the spec leaves out (e.g. VRChat's /api/1).
   * @param perAccount whether `record` is given the account and the snapshot lists `byAccount`.
   */
  constructor(
    private readonly routePrefix?: RegExp,
    private readonly perAccount = false,
  ) {}

  /** @param account who made the request (a VRChat user id), when signed in. */
  record(req: FastifyRequest, reply: FastifyReply, account?: string): void {
    // The route as the spec writes it: /groups/{groupId}/… (Fastify's :groupId, less the prefix).
    let pattern = req.routeOptions.url ?? '(no route)';
    if (this.routePrefix) pattern = pattern.replace(this.routePrefix, '');
    const key = `${req.method} ${pattern.replace(/:(\w+)/g, '{$1}')}`;
    const route = this.byRoute.get(key) ?? { requests: 0, rateLimited: 0 };
    this.byRoute.set(key, route);
    this.requests += 1;
    route.requests += 1;
    this.lastAt = Date.now();
    this.firstAt ??= this.lastAt;
    const status = reply.statusCode;
    if (status === 429) {
      this.rateLimited += 1;
      route.rateLimited += 1;
    }
    if (status === 400 || status === 401 || status === 403) this.invalid += 1;
    if (this.perAccount && account) {
      const mine = this.byAccount.get(account) ?? { requests: 0, rateLimited: 0, byRoute: new Map() };
      this.byAccount.set(account, mine);
      const own = mine.byRoute.get(key) ?? { requests: 0, rateLimited: 0 };
      mine.byRoute.set(key, own);
      mine.requests += 1;
      own.requests += 1;
      if (status === 429) {
        mine.rateLimited += 1;
        own.rateLimited += 1;
      }
    }
  }

  snapshot() {
    return {
      requests: this.requests,
      rateLimited: this.rateLimited,
      invalid: this.invalid,
      firstAt: this.firstAt,
      lastAt: this.lastAt,
      byRoute: sortedRoutes(this.byRoute),
      ...(this.perAccount
        ? {
            byAccount: Object.fromEntries(
              [...this.byAccount].map(([account, c]) => [
                account,
                { requests: c.requests, rateLimited: c.rateLimited, byRoute: sortedRoutes(c.byRoute) },
              ]),
            ),
          }
        : {}),
    };
  }

  reset(): void {
    this.requests = 0;
    this.rateLimited = 0;
    this.invalid = 0;
    this.firstAt = null;
    this.lastAt = null;
    this.byRoute.clear();
    this.byAccount.clear();
  }
}

const sortedRoutes = (routes: Map<string, RouteCount>) =>
  Object.fromEntries([...routes].sort(([a], [b]) => (a < b ? -1 : 1)));
