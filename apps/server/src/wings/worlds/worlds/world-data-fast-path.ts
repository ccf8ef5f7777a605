import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FastPath, rawHeader } from '../../../http/fast-path-server.js';
import { WORLD_DATA_FRESH_MS, type WorldDataCache } from './world-data-cache.js';
import type { WorldBody } from './world-data-store.js';

const PREFIX = '/data/v2/';
/** `/data/v2/` and a GUID, nothing more (a query string, a trailing slash: Fastify answers). */
const PATH_LENGTH = PREFIX.length + 36;

export const WORLD_DATA_CONTENT_TYPE = 'text/plain; charset=utf-8';
export const WORLD_DATA_CACHE_CONTROL = `public, max-age=${WORLD_DATA_FRESH_MS / 1000}`;

/** If-None-Match names this ETag (or any): the client's copy is current. Weak forms compare equal. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch === etag || ifNoneMatch.trim() === '*' || ifNoneMatch.includes(etag);
}

interface PreparedHeaders {
  ok: string[];
  notModified: string[];
}

/**
 * Answers GET/HEAD /data/v2/{worldGuid} from the in-memory body before Fastify routes the request: the
 * same bytes and headers the route sends (security headers included), computed once per body. Anything
 * else, or a body `ready()` does not vouch for, falls through to Fastify, whose route decides.
 */
export class WorldDataFastPath implements FastPath {
  private security: string[] | undefined;
  private prepared = new WeakMap<WorldBody, PreparedHeaders>();

  constructor(private readonly cache: WorldDataCache) {}

  /** The headers world data answers carry (security-headers.ts); until then everything goes to Fastify. */
  useSecurityHeaders(headers: readonly (readonly [string, string])[]): void {
    this.security = headers.flat();
    this.prepared = new WeakMap();
  }

  /** True when answered here; false leaves the request to Fastify. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url;
    if (url === undefined || url.length !== PATH_LENGTH || !url.startsWith(PREFIX) || !this.security)
      return false;
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const body = this.cache.ready(url.slice(PREFIX.length));
    if (!body) return false;
    this.cache.requests.count(body.worldId);
    const headers = this.headersOf(body, this.security);
    if (etagMatches(rawHeader(req.rawHeaders, 'if-none-match'), body.etag)) {
      res.writeHead(304, headers.notModified);
      res.end();
    } else {
      res.writeHead(200, headers.ok);
      res.end(method === 'HEAD' ? undefined : body.bytes);
    }
    return true;
  }

  private headersOf(body: WorldBody, security: string[]): PreparedHeaders {
    let headers = this.prepared.get(body);
    if (!headers) {
      const common = [...security, 'cache-control', WORLD_DATA_CACHE_CONTROL, 'etag', body.etag];
      headers = {
        ok: [...common, 'content-type', WORLD_DATA_CONTENT_TYPE, 'content-length', String(body.bytes.length)],
        notModified: common,
      };
      this.prepared.set(body, headers);
    }
    return headers;
  }
}
