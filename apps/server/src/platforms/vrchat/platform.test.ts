import { vrchatSeed } from '@vrclink/simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/db.js';
import type { Database } from '../../db/client.js';
import { platformSessions } from '../../db/schema/index.js';
import { metrics } from '../../observability/metrics.js';
import { LAX_SIMULATOR, type SimHarness, startSimHarness, waitFor } from '../testing.js';
import {
  createVrchatPlatform,
  dbSessionStore,
  memorySessionStore,
  type SessionStore,
  type VrchatPlatform,
  type VrchatPlatformOptions,
  type VrchatStatus,
} from './index.js';

const fast = {
  ratePerSecond: 200,
  burst: 20,
  backoffBaseMs: 5,
  backoffMaxMs: 40,
  rateLimitPauseMs: 40,
  rateLimitPauseMaxMs: 160,
};
const aurora = vrchatSeed.userIds['Aurora Skye'];

describe('VRChat adapter: session, login and pacing against the simulator', () => {
  let sim: SimHarness;
  let database: Database;
  const open: VrchatPlatform[] = [];
  /** Every request that left the adapter, as `METHOD /path` (Basic logins marked). */
  let sent: string[];

  const recordingFetch: typeof fetch = async (input, init) => {
    const req = input as Request;
    const basic = req.headers.get('authorization')?.startsWith('Basic ') ? ' (basic)' : '';
    sent.push(`${req.method} ${new URL(req.url).pathname.replace('/api/1', '')}${basic}`);
    return fetch(input, init);
  };
  const basicLogins = () => sent.filter((s) => s.endsWith('(basic)')).length;

  const make = (store: SessionStore, overrides: Partial<VrchatPlatformOptions> = {}) => {
    const platform = createVrchatPlatform({
      config: sim.config.vrchat,
      sessionStore: store,
      log: sim.log,
      pacer: fast,
      fetch: recordingFetch,
      ...overrides,
    });
    open.push(platform);
    return platform;
  };

  beforeAll(async () => {
    // Lax: VRChat paced at 200/s here (strict allows ~1/s); not a test of the limits.
    sim = await startSimHarness(LAX_SIMULATOR);
    database = await openTestDatabase();
  });
  beforeEach(async () => {
    sent = [];
    await sim.control('POST', '/vrchat/reset-sessions');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.close()));
    await sim.control('DELETE', '/faults');
  });
  afterAll(async () => {
    await database?.close();
    await sim?.close();
  });

  it('logs in with Basic + TOTP on first use, and a restart on the same stored session does not log in again', async () => {
    const store = dbSessionStore(database.db, sim.config.secretKey, 'vrchat-restart');
    const first = make(store);
    expect(first.state().status).toBe('logged_out');
    expect((await first.getUser(aurora))?.displayName).toBe('Aurora Skye');
    expect(first.state().status).toBe('ok');
    expect(await sim.vrchatBotLogins()).toBe(1);
    expect(sent).toContain('POST /auth/twofactorauth/totp/verify');
    // The TOTP code is never offered as a recovery code.
    expect(sent).not.toContain('POST /auth/twofactorauth/otp/verify');
    await first.close();

    const [row] = await database.db.select().from(platformSessions);
    expect(row.name).toBe('vrchat-restart');
    expect(row.dataEnc).not.toContain('authcookie');

    sent = [];
    const second = make(store);
    expect(await second.start()).toMatchObject({ status: 'ok' });
    expect((await second.getUser(aurora))?.id).toBe(aurora);
    expect(basicLogins()).toBe(0);
    expect(await sim.vrchatBotLogins()).toBe(1);
  });

  it('lets concurrent first callers share one login', async () => {
    const platform = make(memorySessionStore());
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => platform.getUser(aurora)));
    expect(users.every((u) => u?.id === aurora)).toBe(true);
    expect(basicLogins()).toBe(1);
    expect(await sim.vrchatBotLogins()).toBe(1);
  });

  it('replaces a session VRChat stopped accepting with exactly one new login, no sooner than the cooldown', async () => {
    // Even a successful login starts a cooldown: a session that dies at once must not cause a login loop.
    // A call that finds the session dead waits (a few seconds at most) for another process's login or the
    // cooldown's end.
    const loginsAt: number[] = [];
    const timedFetch: typeof fetch = async (input, init) => {
      if ((input as Request).headers.get('authorization')?.startsWith('Basic ')) loginsAt.push(Date.now());
      return recordingFetch(input, init);
    };
    const platform = make(memorySessionStore(), { login: { cooldownMs: 300 }, fetch: timedFetch });
    const firstLoginNotBefore = Date.now();
    await platform.start();
    await sim.control('POST', '/vrchat/invalidate-sessions', {});
    expect((await platform.getUser(aurora))?.id).toBe(aurora);
    expect(basicLogins()).toBe(2);
    expect(loginsAt[1] - firstLoginNotBefore).toBeGreaterThanOrEqual(300);
    expect(platform.state().status).toBe('ok');
  });

  it('refuses a call, after its short wait, while a login cooldown outlasts it', async () => {
    const platform = make(memorySessionStore(), { login: { cooldownMs: 60_000, waitForOthersMs: 100 } });
    await platform.start();
    await sim.control('POST', '/vrchat/invalidate-sessions', {});
    await expect(platform.getUser(aurora)).rejects.toThrow(
      /paused until .*a login was attempted moments ago/,
    );
    expect(basicLogins()).toBe(1);
  });

  it('rides out a burst of 429s: pauses, shows rate_limited meanwhile, then succeeds', async () => {
    const platform = make(memorySessionStore());
    await platform.start();
    await sim.control('POST', '/faults', { platform: 'vrchat', kind: 'rate_limit', count: 3 });
    const seen = new Set<VrchatStatus>();
    const pending = platform.getUser(aurora);
    const watching = waitFor(() => {
      seen.add(platform.state().status);
      return seen.has('rate_limited');
    });
    expect((await pending)?.id).toBe(aurora);
    await watching;
    const state = platform.state();
    expect(state.status).toBe('ok');
    expect(state.lastRateLimitedAt).toBeDefined();
    expect(sent.filter((s) => s === `GET /users/${aurora}`)).toHaveLength(4);
    // /metrics counts them for the bot account by its username (never its password or TOTP secret).
    const line = `vrclink_platform_rate_limits_total{platform="vrchat",account="${sim.config.vrchat.username}",kind="429"}`;
    expect(metrics.platformRateLimits.lines().find((l) => l.startsWith(line))).toBeDefined();
  });

  it('holds other callers during the pause that a 429 starts', async () => {
    const platform = make(memorySessionStore(), {
      pacer: { ...fast, rateLimitPauseMs: 300, rateLimitPauseMaxMs: 300 },
    });
    await platform.start();
    await sim.control('POST', '/faults', {
      platform: 'vrchat',
      kind: 'rate_limit',
      count: 1,
      pathContains: '/users/',
    });
    const started = Date.now();
    const first = platform.getUser(aurora);
    await waitFor(() => platform.state().status === 'rate_limited');
    const other = await platform.getGroup(vrchatSeed.groupIds.hangout);
    expect(other?.name).toBeTruthy();
    // The unrelated call waited for the pause (at least half of it, given the jitter).
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect((await first)?.id).toBe(aurora);
  });

  it('retries a burst of server errors and network failures with backoff', async () => {
    let failNext = 1;
    const flaky: typeof fetch = async (input, init) => {
      if (failNext > 0 && (input as Request).url.includes('/users/')) {
        failNext -= 1;
        sent.push('network error');
        throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      }
      return recordingFetch(input, init);
    };
    const platform = make(memorySessionStore(), { fetch: flaky });
    await platform.start();
    await sim.control('POST', '/faults', { platform: 'vrchat', kind: 'server_error', count: 2 });
    expect((await platform.getUser(aurora))?.id).toBe(aurora);
    expect(sent.filter((s) => s === `GET /users/${aurora}`)).toHaveLength(3);
    expect(sent).toContain('network error');
    expect(platform.state().status).toBe('ok');
  });

  it('retries a request that times out', async () => {
    // The slow answer comes far past the time-out, and the time-out is far past a loaded machine's answer; still,
    // a retry may itself time out when the CPU is starved, so the count is a lower bound (the retry happened).
    const platform = make(memorySessionStore(), { pacer: { ...fast, requestTimeoutMs: 1000 } });
    await platform.start();
    await sim.control('POST', '/faults', {
      platform: 'vrchat',
      kind: 'slow',
      count: 1,
      delayMs: 4000,
      pathContains: '/users/',
    });
    expect((await platform.getUser(aurora))?.id).toBe(aurora);
    expect(sent.filter((s) => s === `GET /users/${aurora}`).length).toBeGreaterThanOrEqual(2);
  });

  it('gives up after the bounded retries with a VrchatError and shows unreachable', async () => {
    const platform = make(memorySessionStore(), { pacer: { ...fast, maxRetries: 2 } });
    await platform.start();
    await sim.control('POST', '/faults', {
      platform: 'vrchat',
      kind: 'server_error',
      count: 5,
      pathContains: '/users/',
    });
    await expect(platform.getUser(aurora)).rejects.toMatchObject({ name: 'VrchatError', status: 502 });
    expect(sent.filter((s) => s === `GET /users/${aurora}`)).toHaveLength(3);
    expect(platform.state().status).toBe('unreachable');
  });

  it('answers a wrong password with login_failed, and tries again only after the cooldown', async () => {
    const config = { ...sim.config.vrchat, password: 'not-the-password' };
    // The gate's own clock, moved by hand: a loaded machine's late timer cannot outlast the doubled cooldown.
    let clock = Date.now();
    const platform = make(memorySessionStore(), { config, login: { cooldownMs: 300, now: () => clock } });
    await expect(platform.getUser(aurora)).rejects.toMatchObject({ name: 'VrchatError', status: 503 });
    expect(platform.state()).toMatchObject({
      status: 'login_failed',
      lastError: 'Invalid Username/Email or Password',
    });
    expect(basicLogins()).toBe(1);

    // A crowd of callers inside the cooldown: all refused, no new login.
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => platform.getUser(aurora)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect((results[0] as PromiseRejectedResult).reason.message).toMatch(/paused until .*Invalid Username/);
    expect(basicLogins()).toBe(1);

    clock += 320;
    await expect(platform.getUser(aurora)).rejects.toThrow();
    expect(basicLogins()).toBe(2);
    // The cooldown doubles after a second failure in a row.
    clock += 320;
    await expect(platform.getUser(aurora)).rejects.toThrow();
    expect(basicLogins()).toBe(2);
  });

  it('shows needs_2fa when VRChat rejects the TOTP code, without trying recovery codes', async () => {
    const config = { ...sim.config.vrchat, totpSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' };
    const platform = make(memorySessionStore(), { config, login: { cooldownMs: 60_000 } });
    await expect(platform.getUser(aurora)).rejects.toMatchObject({ status: 503 });
    expect(platform.state()).toMatchObject({
      status: 'needs_2fa',
      lastError: 'VRChat rejected the two-factor code',
    });
    await expect(platform.getUser(aurora)).rejects.toThrow(/not logged in|paused/);
    expect(sent.filter((s) => s.includes('/verify'))).toEqual(['POST /auth/twofactorauth/totp/verify']);
    expect(basicLogins()).toBe(1);
  });

  it("turns VRChat's 'Created too many sessions' into rate_limited, never a login storm", async () => {
    await sim.control('PATCH', '/vrchat/config', { sessionLimit: { max: 1, windowSeconds: 3600 } });
    try {
      await make(memorySessionStore()).start();
      const second = make(memorySessionStore(), { login: { cooldownMs: 60_000 } });
      const state = await second.start();
      expect(state).toMatchObject({
        status: 'rate_limited',
        lastError: 'Created too many sessions for that user',
      });
      expect(state.rateLimitedUntil).toBeDefined();
      await Promise.allSettled([second.getUser(aurora), second.getUser(aurora)]);
      expect(basicLogins()).toBe(2);
    } finally {
      await sim.control('PATCH', '/vrchat/config', { sessionLimit: { max: 10, windowSeconds: 3600 } });
    }
  });

  it('does not contact VRChat without credentials', async () => {
    const platform = make(memorySessionStore(), {
      config: { ...sim.config.vrchat, username: '', password: '' },
    });
    await expect(platform.getUser(aurora)).rejects.toMatchObject({
      status: 503,
      message: 'VRChat credentials are not configured',
    });
    expect(sent).toEqual([]);
  });
});
