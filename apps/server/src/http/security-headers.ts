import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';

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

/** Security headers on every answer (web app, /api, /data, 404s): CSP, nosniff, no framing, referrer. */
export async function registerSecurityHeaders(app: FastifyInstance, config: AppConfig): Promise<void> {
  await app.register(fastifyHelmet, {
    global: true,
    // Without upgrade-insecure-requests: a plain-http install (demo, tests) must still load its own files.
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    // HSTS only matters over https; never for other sites on the operator's domain.
    strictTransportSecurity: { maxAge: 180 * 24 * 60 * 60, includeSubDomains: false },
  });
}
