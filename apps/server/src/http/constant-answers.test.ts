import { type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { sessionXsrfToken } from './auth.js';
import { fastPathServerFactory } from './fast-path-server.js';

const TOKEN = 'metrics-token-0123456789abcdef';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over a real socket (the fast paths sit in the HTTP server, in front of Fastify). */
function send(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers an answer carries, without the ones Node writes itself on every answer. */
function ownHeaders(headers: IncomingHttpHeaders | Record<string, unknown>) {
  const { date: _d, connection: _c, 'keep-alive': _k, ...own } = headers as Record<string, unknown>;
  return own;
}

describe('answers the same for everyone, from memory (GET /api/config)', () => {
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  /** How many /api/config answers the metrics counted, and how many of them Fastify timed. */
  async function counted(): Promise<{ answers: number; timed: number }> {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const value = (pattern: RegExp) => Number(res.body.match(pattern)?.[1] ?? 0);
    return {
      answers: value(
        /^vrclink_http_requests_total\{method="GET",route="\/api\/config",status="200"\} (\d+)$/m,
      ),
      timed: value(
        /^vrclink_http_request_duration_seconds_count\{method="GET",route="\/api\/config"\} (\d+)$/m,
      ),
    };
  }

  it("replays Fastify's own answer byte for byte to a returning browser, counted and never routed", async () => {
    const cookie = 'XSRF-TOKEN=returning-browser';
    const routed = await t.app.inject({ method: 'GET', url: '/api/config', headers: { cookie } });
    const before = await counted();
    const replayed = await send(origin, '/api/config', { cookie });
    const after = await counted();

    expect(replayed.status).toBe(200);
    expect(replayed.body).toBe(routed.body);
    expect(ownHeaders(replayed.headers)).toEqual(ownHeaders(routed.headers));
    expect(replayed.headers['content-security-policy']).toContain("default-src 'self'");
    expect(JSON.parse(replayed.body)).toMatchObject({ demoMode: expect.any(Boolean) });
    // Counted as an answer like Fastify's, but no Fastify hook ran: its duration was not observed.
    expect(after.answers - before.answers).toBe(1);
    expect(after.timed - before.timed).toBe(0);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const head = await send(origin, '/api/config', { cookie: 'XSRF-TOKEN=x' }, 'HEAD');
    const get = await send(origin, '/api/config', { cookie: 'XSRF-TOKEN=x' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(ownHeaders(head.headers)).toEqual(ownHeaders(get.headers));
  });

  it('leaves to Fastify every request whose answer differs: a new browser gets its XSRF cookie', async () => {
    const before = await counted();
    const fresh = await send(origin, '/api/config');
    expect(fresh.status).toBe(200);
    expect(String(fresh.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=[\w-]+; Path=\/; SameSite=Lax/);

    // A signed-in browser whose pair is not its session's (changed, or planted) gets the session's own.
    const session = 'a-session-token';
    const own = sessionXsrfToken(t.ctx.config.secretKey, session);
    const planted = await send(origin, '/api/config', {
      cookie: `vrclink_session=${session}; XSRF-TOKEN=planted`,
    });
    expect(String(planted.headers['set-cookie'])).toContain(`XSRF-TOKEN=${own};`);
    // With its own pair it is a returning browser again: replayed.
    const paired = await send(origin, '/api/config', {
      cookie: `vrclink_session=${session}; XSRF-TOKEN=${own}`,
    });
    expect(paired.headers['set-cookie']).toBeUndefined();

    // A query string, and credentials in a header, go to Fastify too (timed there).
    const query = await send(origin, '/api/config?x=1', { cookie: 'XSRF-TOKEN=x' });
    expect(query.status).toBe(200);
    const bearer = await send(origin, '/api/config', { cookie: 'XSRF-TOKEN=x', authorization: 'Bearer x' });
    expect(bearer.status).toBe(200);

    const after = await counted();
    expect(after.answers - before.answers).toBe(5);
    // fresh, planted, query and bearer went through Fastify; only the paired one was replayed.
    expect(after.timed - before.timed).toBe(4);
  });
});

describe('the fast-path server while draining', () => {
  it("closes the connection after a fast path's answer once the server drains", async () => {
    const drain = { closing: false };
    const factory = fastPathServerFactory(
      [
        {
          answer: (_req, res) => {
            res.writeHead(200, ['content-type', 'text/plain']).end('fast');
            return true;
          },
        },
      ],
      drain,
    );
    const server = factory((_req, res) => res.end('routed'), {
      keepAliveTimeout: 5000,
      requestTimeout: 0,
      connectionTimeout: 0,
    } as never) as import('node:http').Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const open = await send(origin, '/', { connection: 'keep-alive' });
      expect(open.body).toBe('fast');
      expect(open.headers.connection).toBe('keep-alive');
      drain.closing = true;
      const closing = await send(origin, '/', { connection: 'keep-alive' });
      expect(closing.body).toBe('fast');
      expect(closing.headers.connection).toBe('close');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
