import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../test/app.js';
import { buildApp } from '../app.js';
import { rateLimits } from '../db/schema/index.js';
import { processMetrics } from '../observability/process-metrics.js';
import { createLocalRateCounter, userRateKey } from './rate-limit.js';
import type { ZodApp } from './types.js';

/** The rate limiter's refusals of anonymous callers as this process's /metrics counts them. */
let addressRefusals: () => Promise<number>;

describe('rate limits', () => {
  let t: TestApp;
  let other: ZodApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_ANONYMOUS: '3', RATE_LIMIT_USER: '4' } });
    addressRefusals = async () => {
      const text = await processMetrics(t.ctx).render();
      return Number(/^vrclink_rate_limit_refusals_total\{bucket="address"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    // A second server on the same database, as a second process would be.
    other = (await buildApp({ ctx: t.ctx, webDist: null })).app;
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('limits anonymous SDK login starts per address, shared by every server, with RateLimit headers', async () => {
    const from = (remoteAddress: string, app: 'one' | 'other' = 'one') =>
      app === 'one'
        ? t.inject({ method: 'GET', url: '/api/sdk-login', remoteAddress })
        : other.inject({ method: 'GET', url: '/api/sdk-login', remoteAddress });
    const first = await from('10.0.0.1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('3');
    expect(first.headers['ratelimit-remaining']).toBe('2');
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(first.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    expect((await from('10.0.0.1', 'other')).statusCode).toBe(200);
    expect((await from('10.0.0.1')).headers['ratelimit-remaining']).toBe('0');
    const refused = await from('10.0.0.1', 'other');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.json().message).toMatch(/^Too many requests: wait \d+ seconds? and try again\.$/);
    // Another address has its own allowance; the refused one wrote no login request.
    expect((await from('10.0.0.2')).statusCode).toBe(200);
  });

  it('limits the sign-in routes for anonymous callers but not their reads', async () => {
    const refusalsBefore = await addressRefusals();
    for (let i = 0; i < 3; i++)
      expect(
        (await t.inject({ method: 'GET', url: '/api/login', remoteAddress: '10.0.1.1' })).statusCode,
      ).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/login', remoteAddress: '10.0.1.1' })).statusCode).toBe(
      429,
    );
    const read = await t.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.0.1.1' });
    expect(read.statusCode).not.toBe(429);
    expect(read.headers['ratelimit-limit']).toBeUndefined();
    // Counted for /metrics (docs/deploy.md, "Metrics").
    expect(await addressRefusals()).toBe(refusalsBefore + 1);
  });

  it('limits a signed-in user per user id across /api, whatever the address', async () => {
    const alice = await signIn(t);
    const bob = await signIn(t);
    for (let i = 0; i < 4; i++) {
      const res = await t.inject({
        method: 'GET',
        url: '/api/user',
        session: alice.session,
        remoteAddress: `10.0.2.${i}`,
      });
      expect(res.statusCode).toBe(200);
      // A browser is told its quota once it has used half of it (the next test).
      expect(res.headers['ratelimit-remaining']).toBe(i < 2 ? undefined : String(3 - i));
    }
    const refused = await t.inject({ method: 'GET', url: '/api/guilds', session: alice.session });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await t.inject({ method: 'GET', url: '/api/user', session: bob.session })).statusCode).toBe(200);
  });

  it('tells a browser its quota once half is used, and a program with a token on every answer', async () => {
    const frank = await signIn(t);
    const asBrowser = () => t.inject({ method: 'GET', url: '/api/user', session: frank.session });
    const asProgram = () =>
      t.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${frank.session}` } });
    // Both count against the one user's limit (4): the program is told every time, the browser from the third.
    const answers = [await asProgram(), await asBrowser(), await asBrowser(), await asProgram()];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers.map((r) => r.headers['ratelimit-remaining'])).toEqual(['3', undefined, '1', '0']);
    expect(answers[1]!.headers['ratelimit-limit']).toBeUndefined();
    expect(answers[1]!.headers['ratelimit-policy']).toBeUndefined();
    expect(answers[2]!.headers['ratelimit-limit']).toBe('4');
    expect(answers[2]!.headers['ratelimit-policy']).toBe('4;w=60');
    // Over the limit a browser is told too, with Retry-After.
    const refused = await asBrowser();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("does not count a signed-in user's image loads (a page of previews)", async () => {
    const carol = await signIn(t);
    const user = () => t.inject({ method: 'GET', url: '/api/user', session: carol.session });
    for (let i = 0; i < 4; i++) expect((await user()).statusCode).toBe(200);
    expect((await user()).statusCode).toBe(429);
    const guild = '1100000000000000001';
    const image = '00000000-0000-4000-8000-000000000001';
    for (const url of [
      `/api/world_images/${guild}/image/${image}`,
      `/api/world_images/${guild}/image/${image}/preview`,
      `/api/world_images/slot_image/${guild}/${image}/0`,
      `/api/world_images/slot_image/${guild}/${image}/0/preview`,
      `/api/world_images/atlas/${image}/0/0`,
    ]) {
      const res = await t.inject({ method: 'GET', url, session: carol.session });
      // Answered as without a limit (this app has no Discord to check ViewImages against: the route-permission
      // matrix checks these routes), not refused for the rate limit.
      expect(res.statusCode, `${url}: ${res.body}`).not.toBe(429);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
    // Everything else still waits for the window.
    expect((await t.inject({ method: 'GET', url: '/api/guilds', session: carol.session })).statusCode).toBe(
      429,
    );
  });
});

describe('rate limit window', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_ANONYMOUS: '1', RATE_LIMIT_WINDOW_SECONDS: '30' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts a new window once the old one ends', async () => {
    const start = () => t.inject({ method: 'GET', url: '/api/sdk-login' });
    expect((await start()).statusCode).toBe(200);
    const refused = await start();
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    // The window's end passes on the database's clock, where windows are counted: its start moves back a whole
    // window (a one-second window and a sleep made the test a bet on how fast a loaded machine answers twice).
    await t.ctx.database.executeSql(
      "update rate_limits set window_start = window_start - interval '30 seconds' where key like 'rate:ip:%'",
    );
    expect((await start()).statusCode).toBe(200);
  });
});

describe("a signed-in user's count, kept in memory below half the limit", () => {
  let t: TestApp;
  let other: ZodApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_USER: '20' } });
    other = (await buildApp({ ctx: t.ctx, webDist: null })).app;
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('reaches the database with its next write (once a second), and the limit stays exact across two servers', async () => {
    const dana = await signIn(t);
    // With the token in the Authorization header, as a program sends it: every answer then tells the count.
    const authorization = `Bearer ${dana.session}`;
    const onA = () => t.inject({ method: 'GET', url: '/api/user', headers: { authorization } });
    const onB = () => other.inject({ method: 'GET', url: '/api/user', headers: { authorization } });
    for (let i = 0; i < 5; i++) expect((await onA()).headers['ratelimit-remaining']).toBe(String(19 - i));
    const shared = async () =>
      (
        await t.ctx.database.executeSql('select hits from rate_limits where key = $1', [
          `rate:${userRateKey(t.ctx.config.secretKey, dana.id)}`,
        ])
      ).rows[0]?.hits;
    await expect.poll(shared, { timeout: 30_000, interval: 100 }).toBe(5);
    // The other server sees the five.
    expect((await onB()).headers['ratelimit-remaining']).toBe('14');
    // Both servers together let exactly 20 through in the window.
    let allowed = 6;
    for (let i = 0; i < 30; i++) {
      const res = await (i % 2 ? onB() : onA());
      if (res.statusCode === 200) allowed += 1;
      else expect(res.statusCode).toBe(429);
    }
    expect(allowed).toBe(20);
  });
});

describe('the in-memory count while a write runs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('includes the requests being written, and every answer counts each request once', async () => {
    const counter = createLocalRateCounter(t.ctx.db, 60_000);
    try {
      const hits: number[] = [];
      for (let i = 0; i < 3; i++) hits.push((await counter.hit('rate:test:race', 40)).hits);
      // The once-a-second write starts: the two requests counted in memory are on their way, not lost.
      const flushing = counter.flush();
      hits.push((await counter.hit('rate:test:race', 40)).hits);
      await flushing;
      hits.push((await counter.hit('rate:test:race', 40)).hits);
      expect(hits).toEqual([1, 2, 3, 4, 5]);
      await counter.flush();
      const { rows } = await t.ctx.database.executeSql('select hits from rate_limits where key = $1', [
        'rate:test:race',
      ]);
      expect(rows[0]?.hits).toBe(5);
    } finally {
      await counter.close();
    }
  });
});

describe('a busy caller under the limit whose count went stale', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());
  afterEach(() => vi.restoreAllMocks());

  it('waits for one write of the shared count, not one write per request', async () => {
    const counter = createLocalRateCounter(t.ctx.db, 60_000);
    try {
      expect((await counter.hit('rate:test:stale', 1000)).hits).toBe(1);
      // Let the first write settle, then move the clock on past the count's freshness (no flush ran).
      await new Promise((r) => setImmediate(r));
      const later = Date.now() + 1500;
      vi.spyOn(Date, 'now').mockReturnValue(later);
      const writes = vi.spyOn(t.ctx.db, 'insert');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => counter.hit('rate:test:stale', 1000)),
      );
      // One write reads the count again; the requests meanwhile are counted in memory (the once-a-second
      // flush may add one more). Before, each of the 20 waited for a write of its own, one after another.
      expect(writes.mock.calls.filter(([table]) => table === rateLimits).length).toBeLessThanOrEqual(2);
      expect(answers.map((a) => a.hits).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 2),
      );
      await counter.flush();
      const { rows } = await t.ctx.database.executeSql('select hits from rate_limits where key = $1', [
        'rate:test:stale',
      ]);
      expect(rows[0]?.hits).toBe(21);
    } finally {
      await counter.close();
    }
  });
});

describe('a signed-in caller over the limit', () => {
  let t: TestApp;
  let other: ZodApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_USER: '6' } });
    other = (await buildApp({ ctx: t.ctx, webDist: null })).app;
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });
  afterEach(() => vi.restoreAllMocks());

  it('is refused from memory after the first refusal, by every server, with no write to the shared count', async () => {
    const erin = await signIn(t);
    const onA = () => t.inject({ method: 'GET', url: '/api/user', session: erin.session });
    const onB = () =>
      other.inject({ method: 'GET', url: '/api/user', cookies: { vrclink_session: erin.session } });
    const shared = async () =>
      (
        await t.ctx.database.executeSql('select hits from rate_limits where key = $1', [
          `rate:${userRateKey(t.ctx.config.secretKey, erin.id)}`,
        ])
      ).rows[0]?.hits;
    for (let i = 0; i < 6; i++) expect((await (i % 2 ? onB() : onA())).statusCode).toBe(200);
    const first = await onA();
    expect(first.statusCode).toBe(429);
    const afterFirst = await shared();
    // The other server learns it with one write of its own, then refuses from memory too.
    expect((await onB()).statusCode).toBe(429);
    const afterBoth = await shared();
    expect(Number(afterBoth)).toBeGreaterThan(6);

    const writes = vi.spyOn(t.ctx.db, 'insert');
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 ? onB() : onA());
      expect(res.statusCode).toBe(429);
      expect(res.headers['ratelimit-remaining']).toBe('0');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().message).toMatch(/^Too many requests: wait \d+ seconds? and try again\.$/);
    }
    expect(writes.mock.calls.filter(([table]) => table === rateLimits)).toEqual([]);
    expect(await shared()).toBe(afterBoth);
    expect(Number(afterFirst)).toBeLessThanOrEqual(Number(afterBoth));
  });
});

describe("a signed-in caller refused from memory, once the window's end passed", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_USER: '2', RATE_LIMIT_WINDOW_SECONDS: '1' } });
  });
  afterAll(() => t?.close());

  it('is counted in a new window', async () => {
    const finn = await signIn(t);
    const user = () => t.inject({ method: 'GET', url: '/api/user', session: finn.session });
    // Two allowed, then refused (from memory after the first refusal) until the window ends; a process
    // that refused from memory must not go on refusing after it.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await user()).statusCode);
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    await expect.poll(async () => (await user()).statusCode, { timeout: 30_000, interval: 100 }).toBe(200);
  });
});
