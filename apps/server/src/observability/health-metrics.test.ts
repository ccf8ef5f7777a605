import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { freePort, type ServerProcess, startServerProcess } from '../../test/server-process.js';
import { buildApp } from '../app.js';
import type { ZodApp } from '../http/types.js';

const TOKEN = 'metrics-token-0123456789';

describe('health checks', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await createTestApp({ env: { PROCESS_ROLES: 'api' } });
  });
  afterAll(() => api?.close());

  it('answers liveness without looking further', async () => {
    const res = await api.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('is ready when the database answers and every migration of this release is applied', async () => {
    const res = await api.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
  });

  it('is not ready while the newest migration is missing (an older schema than this release)', async () => {
    const { rows } = await api.ctx.database.executeSql(
      'select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
    );
    const newest = rows[0]!;
    await api.ctx.database.executeSql('delete from drizzle.__drizzle_migrations where id = $1', [newest.id]);
    try {
      const res = await api.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', migrations: 'migrations of this release are not applied' },
      });
    } finally {
      await api.ctx.database.executeSql(
        'insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)',
        [newest.id, newest.hash, newest.created_at],
      );
    }
  });

  it('is not ready in a bot and worker process whose gateway and job worker are not up', async () => {
    const t = await createTestApp();
    try {
      const res = await t.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toEqual({
        database: 'ok',
        migrations: 'ok',
        gateway: 'the Discord gateway is off',
        jobs: 'the job worker is not running',
      });
    } finally {
      await t.close();
    }
  });
});

describe('/metrics on the public listener', () => {
  let t: TestApp;
  let web: ZodApp;
  let webDist: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { PROCESS_ROLES: 'api', METRICS_TOKEN: TOKEN } });
    webDist = mkdtempSync(join(tmpdir(), 'vrclink-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>VRCLink</title>');
    web = (await buildApp({ ctx: t.ctx, webDist })).app;
    await web.ready();
  });
  afterAll(async () => {
    await web?.close();
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('is never the web app: without the token it is an unknown address', async () => {
    for (const authorization of ['', 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`]) {
      const headers = authorization ? { authorization } : {};
      const res = await web.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.body).not.toContain('<!doctype html>');
    }
  });

  it('answers Prometheus text with the token: requests by route pattern and their time', async () => {
    await web.inject({ method: 'GET', url: '/api/health' });
    await web.inject({ method: 'GET', url: '/api/guilds/123/worlds' });
    const res = await web.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.body).toMatch(
      /^vrclink_http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+$/m,
    );
    // The pattern, never the address with its ids.
    expect(res.body).toContain('route="/api/guilds/:guildId/worlds"');
    expect(res.body).not.toContain('/api/guilds/123/');
    expect(res.body).toMatch(
      /^vrclink_http_request_duration_seconds_count\{method="GET",route="\/api\/health"\} \d+$/m,
    );
    expect(res.body).toContain('# TYPE vrclink_job_queue_jobs gauge');
    expect(res.body).toMatch(/^vrclink_process_roles\{role="api"\} 1$/m);
  });

  it('names every metric the Grafana dashboard in the repository reads', async () => {
    const dashboard = readFileSync(
      new URL('../../../../deploy/grafana/vrclink-dashboard.json', import.meta.url),
      'utf8',
    );
    const read = new Set(
      [...dashboard.matchAll(/\b((?:vrclink|process)_[a-z_]+)/g)].map((m) =>
        m[1]!.replace(/_(bucket|sum|count)$/, ''),
      ),
    );
    const res = await web.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const offered = new Set([...res.body.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    expect([...read].filter((name) => !offered.has(name))).toEqual([]);
    expect(read.size).toBeGreaterThan(10);
  });

  it('is off the public listener without METRICS_TOKEN', async () => {
    const res = await t.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
  });
});

describe('a bot and worker process on HEALTH_PORT', () => {
  let proc: ServerProcess;
  let health: string;
  beforeAll(async () => {
    const port = await freePort();
    health = `http://127.0.0.1:${port}`;
    proc = await startServerProcess({
      DATABASE_URL: '',
      PROCESS_ROLES: 'bot,worker',
      HEALTH_PORT: String(port),
      SIMULATOR_PORT: String(await freePort()),
      SIMULATOR_LIMITS: 'lax',
    });
  }, 120_000);
  afterAll(() => proc?.stop());

  it('serves no HTTP on PORT, and liveness on HEALTH_PORT', async () => {
    await expect(fetch(`${proc.url}/api/health`)).rejects.toThrow();
    expect(await (await fetch(`${health}/api/health`)).json()).toEqual({ status: 'ok' });
  });

  it('becomes ready once its gateway is connected and its job worker runs', async () => {
    let body: unknown;
    for (;;) {
      const res = await fetch(`${health}/api/health/ready`);
      body = await res.json();
      if (res.status === 200) break;
      expect(res.status).toBe(503);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(body).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', gateway: 'ok', jobs: 'ok' },
    });
  });

  it('serves /metrics there: the gateway state and events, platform calls', async () => {
    const text = await (await fetch(`${health}/metrics`)).text();
    expect(text).toMatch(/^vrclink_gateway_state\{state="ready"\} 1$/m);
    expect(text).toMatch(/^vrclink_gateway_events_total\{event="READY"\} 1$/m);
    expect(text).toMatch(/^vrclink_platform_calls_total\{platform="discord",status="2xx"\} \d+$/m);
    expect(text).toMatch(/^vrclink_process_roles\{role="worker"\} 1$/m);
  });
});
