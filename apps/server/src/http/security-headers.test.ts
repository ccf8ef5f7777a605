import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { buildApp } from '../app.js';
import { parseEnv } from '../env.js';
import { resolveConfig } from '../kernel/config.js';
import { contentSecurityPolicy } from './security-headers.js';
import type { ZodApp } from './types.js';

describe('security headers', () => {
  let t: TestApp;
  let web: ZodApp;
  let webDist: string;
  beforeAll(async () => {
    t = await createTestApp();
    webDist = mkdtempSync(join(tmpdir(), 'vrclink-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(
      join(webDist, 'index.html'),
      '<!doctype html><script type="module" src="/assets/app.js"></script>',
    );
    writeFileSync(join(webDist, 'assets/app.js'), 'console.log(1);');
    web = (await buildApp({ ctx: t.ctx, webDist })).app;
    await web.ready();
  });
  afterAll(async () => {
    await web?.close();
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const csp = (headers: Record<string, unknown>) => String(headers['content-security-policy']);

  it.each(['/', '/profile', '/assets/app.js', '/api/health', '/api/no-such-route', '/api/docs/'])(
    '%s answers with the CSP, nosniff, no framing and the referrer policy',
    async (url) => {
      const res = await web.inject({ method: 'GET', url });
      expect(res.statusCode).toBeLessThan(500);
      expect(csp(res.headers)).toContain("frame-ancestors 'none'");
      expect(csp(res.headers)).toContain("script-src 'self';");
      expect(csp(res.headers)).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp(res.headers)).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    },
  );

  it('sends HSTS only over https: never over plain http, over https as a trusted proxy reports it', async () => {
    const plain = await web.inject({ method: 'GET', url: '/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Nobody's X-Forwarded-Proto is believed without TRUST_PROXY.
    const forged = await web.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
    const proxied = await createTestApp({ env: { TRUST_PROXY: 'loopback' } });
    try {
      const res = await proxied.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toBe('max-age=15552000');
    } finally {
      await proxied.close();
    }
  });

  it('sends only nosniff and the resource policy with the world data answers under /data/v2', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/data/v2/3f2b6c1e-0000-4000-8000-000000000000' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    // A text/plain body no browser renders: the page headers are not sent.
    for (const header of [
      'content-security-policy',
      'x-frame-options',
      'referrer-policy',
      'strict-transport-security',
    ])
      expect(res.headers[header]).toBeUndefined();
  });

  it('allows images from the Discord CDN and VRChat named in config', () => {
    const real = resolveConfig(
      parseEnv({ DISCORD_CDN_URL: 'https://cdn.example/base', SECRET_KEY: 'k'.repeat(32) }),
    );
    expect(contentSecurityPolicy(real)['img-src']).toEqual(
      expect.arrayContaining([
        "'self'",
        'data:',
        'https://cdn.example',
        'https://api.vrchat.cloud',
        'https://vrchat.com',
      ]),
    );
  });

  it('allows images from the simulator in demo mode', () => {
    const demo = resolveConfig(parseEnv({ SECRET_KEY: 'k'.repeat(32) }), {
      url: 'http://127.0.0.1:4999',
      discord: { clientId: 'c', clientSecret: 's', botToken: 'b' },
      vrchat: { username: 'u', password: 'p', totpSecret: 't' },
      adminDiscordUserId: '1',
    });
    expect(contentSecurityPolicy(demo)['img-src']).toEqual(["'self'", 'data:', 'http://127.0.0.1:4999']);
  });
});
