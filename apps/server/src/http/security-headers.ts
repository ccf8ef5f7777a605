import fastifyHelmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppConfig } from '../kernel/config.js';

/** Real VRChat image addresses (api.vrchat.cloud/…/file/…) redirect to its file and asset hosts. */
const VRCHAT_IMAGE_HOSTS = ['https://*.vrchat.cloud', 'https://*.vrchat.com'];

/**
 * The web app's policy: Vite's built scripts and styles are same-origin files, Mantine injects style tags
 * (so inline styles), and avatars and icons come from the Discord CDN and VRChat (the simulator in demo mode).
 * The Swagger UI at /api/docs needs nothing more: its scripts are its own files.
 */
export function contentSecurityPolicy(config: AppConfig): Record<string, string[]> {
  const imageOrigins = new Set(
    [config.discord.cdnUrl, config.vrchat.apiUrl, config.vrchat.webUrl].map((url) => new URL(url).origin),
  );
  if (!config.demoMode) for (const host of VRCHAT_IMAGE_HOSTS) imageOrigins.add(host);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', ...imageOrigins],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The headers helmet sets with our options: computed once, they do not depend on the request. */
async function helmetHeaders(config: AppConfig): Promise<[string, string][]> {
  const probe = Fastify();
  await probe.register(fastifyHelmet, {
    global: true,
    // Without upgrade-insecure-requests: a plain-http install (demo, tests) must still load its own files.
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    // HSTS only matters over https; never for other sites on the operator's domain.
    strictTransportSecurity: { maxAge: 180 * 24 * 60 * 60, includeSubDomains: false },
  });
  let headers: [string, string][] = [];
  probe.get('/', (_req, reply) => {
    headers = Object.entries(reply.getHeaders()).map(([k, v]) => [k, String(v)]);
    return '';
  });
  await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  if (!headers.some(([k]) => k === 'content-security-policy')) throw new Error('helmet set no CSP');
  return headers;
}

/** What a world data answer keeps: a text body no browser renders needs no page policy, only these. */
const WORLD_DATA_KEEPS = new Set(['x-content-type-options', 'cross-origin-resource-policy']);
export const WORLD_DATA_PREFIX = '/data/v2/';

export interface SecurityHeaders {
  /** Every other answer's: the web app, /api, other /data, 404s. */
  all: readonly [string, string][];
  /** World data's (text/plain under WORLD_DATA_PREFIX): nosniff and the resource policy. */
  worldData: readonly [string, string][];
}

/**
 * Security headers on every answer: CSP, nosniff, no framing, referrer. Helmet's headers, computed once at
 * start (helmet would build them, CSP included, on every request). World data gets only nosniff and CORP.
 * Returns them for answers sent outside Fastify (the world data fast path).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: AppConfig,
): Promise<SecurityHeaders> {
  const all = await helmetHeaders(config);
  const worldData = all.filter(([name]) => WORLD_DATA_KEEPS.has(name));
  // HSTS only over https (as the client reached us: TRUST_PROXY decides whether X-Forwarded-Proto counts):
  // browsers ignore it over http, and a plain-http demo must not look as if it promised https.
  const overHttp = all.filter(([name]) => name !== 'strict-transport-security');
  app.addHook('onRequest', (req, reply, done) => {
    const headers = req.url.startsWith(WORLD_DATA_PREFIX)
      ? worldData
      : req.protocol === 'https'
        ? all
        : overHttp;
    for (const [name, value] of headers) reply.header(name, value);
    done();
  });
  return { all, worldData };
}
