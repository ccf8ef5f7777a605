import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DiscordConfig } from './state.js';

/**
 * What Discord's Cloudflare edge does before a request reaches the API: it blocks clients without a
 * bot User-Agent and temporarily bans IPs that collect too many 401/403/429 answers.
 */

/** `DiscordBot ($url, $versionNumber)`, optionally followed by more (discord.js appends `Node.js/…`). */
const BOT_USER_AGENT = /^DiscordBot \([^,()]+, [^()]+\)/;

/** Browsers open `/api/oauth2/authorize` (it only redirects to the consent page), so no bot agent there. */
const browserRoute = (url: string) => url.endsWith('/oauth2/authorize');

/** Discord's documented answer (code 40333, "Cloudflare is blocking your request…") to a missing or wrong User-Agent. */
export function refuseUserAgent(req: FastifyRequest, reply: FastifyReply): boolean {
  if (browserRoute(req.routeOptions.url ?? req.url.split('?')[0])) return false;
  if (BOT_USER_AGENT.test(req.headers['user-agent'] ?? '')) return false;
  reply.code(403).send({ message: 'internal network error', code: 40333 });
  return true;
}

/** The JSON Discord sends while an IP is banned (reported by bots since 2020; HTTP 429, `code` 0). */
export const BANNED_MESSAGE =
  'You are being blocked from accessing our API temporarily due to exceeding our rate limits frequently. ' +
  'Please read our docs at https://discord.com/developers/docs/topics/rate-limits to prevent this moving forward.';

/** Timestamps of one IP's invalid answers, oldest first; `start` skips the expired ones. */
interface Hits {
  times: number[];
  start: number;
}

/** The invalid-request limit: N answers of 401, 403 or 429 (except `shared` 429s) per IP per window → ban. */
export class InvalidRequestGuard {
  private readonly hits = new Map<string, Hits>();
  private readonly bans = new Map<string, number>();

  /** `timeScale` shortens the window and the ban as it does every Discord window. */
  constructor(
    private readonly config: () => DiscordConfig,
    private readonly timeScale = 1,
  ) {}

  /** Answers a banned IP's request (429, Retry-After until the ban ends); true when it did. */
  refuseBanned(req: FastifyRequest, reply: FastifyReply): boolean {
    const until = this.bans.get(req.ip);
    if (until === undefined) return false;
    const now = Date.now();
    if (until <= now) {
      this.bans.delete(req.ip);
      return false;
    }
    reply
      .code(429)
      .header('Retry-After', String(Math.ceil((until - now) / 1000)))
      .send({ message: BANNED_MESSAGE, code: 0 });
    return true;
  }

  /** Called for every answer under /api once it is sent. */
  record(req: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    if (status !== 401 && status !== 403 && status !== 429) return;
    if (reply.getHeader('x-ratelimit-scope') === 'shared') return;
    const now = Date.now();
    if ((this.bans.get(req.ip) ?? 0) > now) return;
    const { invalidRequestLimit } = this.config();
    const invalidRequestWindowMs = this.config().invalidRequestWindowMs / this.timeScale;
    const invalidRequestBanMs = this.config().invalidRequestBanMs / this.timeScale;
    let hits = this.hits.get(req.ip);
    if (!hits) {
      hits = { times: [], start: 0 };
      this.hits.set(req.ip, hits);
    }
    hits.times.push(now);
    while (hits.start < hits.times.length && hits.times[hits.start] <= now - invalidRequestWindowMs)
      hits.start += 1;
    // Compact now and then so a long-lived IP does not keep every timestamp.
    if (hits.start > 1024 && hits.start * 2 > hits.times.length) {
      hits.times = hits.times.slice(hits.start);
      hits.start = 0;
    }
    if (hits.times.length - hits.start >= invalidRequestLimit) {
      this.bans.set(req.ip, now + invalidRequestBanMs);
      this.hits.delete(req.ip);
    }
  }

  /** For the control API: invalid answers counted per IP and active bans. */
  view() {
    const now = Date.now();
    const window = this.config().invalidRequestWindowMs / this.timeScale;
    return {
      invalidRequests: Object.fromEntries(
        [...this.hits].map(([ip, h]) => [ip, h.times.slice(h.start).filter((t) => t > now - window).length]),
      ),
      bans: Object.fromEntries(
        [...this.bans]
          .filter(([, until]) => until > now)
          .map(([ip, until]) => [ip, new Date(until).toISOString()]),
      ),
    };
  }

  /** Lifts every ban and forgets every count. */
  reset(): void {
    this.hits.clear();
    this.bans.clear();
  }
}
