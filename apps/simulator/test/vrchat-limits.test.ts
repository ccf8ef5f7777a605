import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { vrchatAccounts, vrchatGroupIds, vrchatUserIds } from '../src/vrchat/index.js';
import { expectMatchesVrchatSpec } from './contract/vrchat-spec.js';
import { NOTHING_COUNTED_VRCHAT } from './counters.js';
import { API, call, login, UA } from './vrchat-helpers.js';

/** The strict defaults: rate limit with blocks and escalation, counters, group rules and bound sessions. */

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(async () => {
  await call(sim.url, 'POST', '/control/vrchat/reset');
  await call(sim.url, 'PATCH', '/control/vrchat/config', {
    json: { rate: { retryAfter: 'alternate' }, sessionAddressBinding: 'off', maxGroupsPerUser: 100 },
  });
});

const lumi = () => `/users/${vrchatUserIds.Lumi}`;
const control = (method: string, path: string, json?: unknown) =>
  call(sim.url, method, `/control/vrchat${path}`, json === undefined ? {} : { json });

describe('rate limit (strict by default)', () => {
  it('is about 1 request/s with a burst of 5, 60 s blocks doubling up to 6 h', async () => {
    expect((await control('GET', '/config')).body).toMatchObject({
      rate: { capacity: 5, perSecond: 1, blockSeconds: 60, maxBlockSeconds: 21_600, retryAfter: 'alternate' },
      sessionAddressBinding: 'off',
      maxGroupsPerUser: 100,
    });
  });

  it('blocks once the burst is spent; calls while blocked double the block; Retry-After on every other 429', async () => {
    const cookie = await login(sim.url, vrchatAccounts.carol); // counts against the address, not carol
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await call(sim.url, 'GET', lumi(), { cookie }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    // The first 429 says 60 s; the call made while blocked got none and doubled the block to 120 s; the
    // next doubled it again to 240 s and says so.
    expect(answers.slice(5).map((a) => a.headers.get('retry-after'))).toEqual(['60', null, '240']);
    for (const a of answers.slice(5)) {
      expect(a.body).toEqual({ error: { message: 'Too many requests', status_code: 429 } });
      // Contract replay: the 429 body is VRChat's error envelope.
      expectMatchesVrchatSpec('GET', '/users/{userId}', 429, a.body);
      expect([...a.headers.keys()].filter((h) => /ratelimit/i.test(h))).toEqual([]);
    }
    // The budget is per account: another account is unaffected.
    const dave = await login(sim.url, vrchatAccounts.dave);
    expect((await call(sim.url, 'GET', lumi(), { cookie: dave })).status).toBe(200);
  });

  it('counts requests, 429s and invalid requests per route and per account; DELETE resets them', async () => {
    await control('DELETE', '/counters');
    const cookie = await login(sim.url, vrchatAccounts.carol);
    for (let i = 0; i < 6; i++) await call(sim.url, 'GET', lumi(), { cookie });
    const counters = await control('GET', '/counters');
    const { firstAt, lastAt } = counters.body as { firstAt: number; lastAt: number };
    expect(lastAt).toBeGreaterThanOrEqual(firstAt);
    expect(counters.body).toEqual({
      requests: 7,
      rateLimited: 1,
      invalid: 0,
      firstAt: expect.any(Number),
      lastAt: expect.any(Number),
      byRoute: {
        'GET /auth/user': { requests: 1, rateLimited: 0 },
        'GET /users/{userId}': { requests: 6, rateLimited: 1 },
      },
      // Per account: the requests made with its session (the login itself carries none yet).
      byAccount: {
        [vrchatAccounts.carol.userId]: {
          requests: 6,
          rateLimited: 1,
          byRoute: { 'GET /users/{userId}': { requests: 6, rateLimited: 1 } },
        },
      },
    });
    await call(sim.url, 'GET', `/groups/${vrchatGroupIds.hangout}/members`, { cookie: 'auth=nope' });
    expect((await control('GET', '/counters')).body).toMatchObject({ requests: 8, invalid: 1 });
    expect((await control('DELETE', '/counters')).status).toBe(204);
    expect((await control('GET', '/counters')).body).toEqual(NOTHING_COUNTED_VRCHAT);
  });

  it('runs N times faster with timeScale, and lets the account go once the block ends', async () => {
    // A slow refill (0.001/s, one request in 5 s at this scale), so back-to-back calls spend the burst of 5
    // however long each takes on a busy machine (at 10/s, calls 100 ms apart never did).
    const fast = await startSimulator({
      port: 0,
      timeScale: 200,
      vrchatRate: { perSecond: 0.001, retryAfter: 'always' },
    });
    try {
      const cookie = await login(fast.url, vrchatAccounts.carol);
      let limited: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i < 10 && !limited; i++) {
        const res = await call(fast.url, 'GET', lumi(), { cookie });
        if (res.status === 429) limited = res;
      }
      // The 60 s block is 0.3 s here, and Retry-After says so in fractions of a second.
      const wait = Number(limited?.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0.2);
      expect(wait).toBeLessThanOrEqual(0.3);
      // A few ms more than told: the simulator's clock and this one's timers round differently.
      await new Promise((r) => setTimeout(r, wait * 1000 + 20));
      expect((await call(fast.url, 'GET', lumi(), { cookie })).status).toBe(200);
    } finally {
      await fast.close();
    }
  });
});

describe('group rules', () => {
  const hangout = vrchatGroupIds.hangout;

  it('refuses to give or take a purchase-only role through the API', async () => {
    const bot = await login(sim.url);
    const role = (
      await control('POST', `/groups/${hangout}/roles`, { name: 'Supporter', requiresPurchase: true })
    ).body as { id: string };
    const umbra = vrchatUserIds.Umbra;
    const path = `/groups/${hangout}/members/${umbra}/roles/${role.id}`;
    const given = await call(sim.url, 'PUT', path, { cookie: bot });
    expect(given.status).toBe(403);
    expect(given.body).toEqual({
      error: {
        message: 'You can\'t manage the role "Supporter" because it is granted by purchase\u2024',
        status_code: 403,
      },
    });
    // VRChat itself grants it (the control API plays VRChat); the bot cannot take it away either.
    await control('PUT', `/groups/${hangout}/members/${umbra}/roles`, { roleIds: [role.id] });
    expect((await call(sim.url, 'DELETE', path, { cookie: bot })).status).toBe(403);
  });

  it('refuses to accept a join request for someone in too many groups, in VRChat\u2019s words', async () => {
    const bot = await login(sim.url);
    const panda = vrchatUserIds['Pixel Panda'];
    await control('POST', `/groups/${vrchatGroupIds.danceClub}/members/${panda}`, {});
    await control('PATCH', '/config', { maxGroupsPerUser: 1 });
    const res = await call(sim.url, 'PUT', `/groups/${hangout}/requests/${panda}`, {
      cookie: bot,
      json: { action: 'accept' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: {
        message: "Pixel Panda can't join right now because they're in too many groups\u2024",
        status_code: 403,
      },
    });
    expectMatchesVrchatSpec('PUT', '/groups/{groupId}/requests/{userId}', 403, res.body);
    // Nothing changed: the request is still pending.
    const pending = (await control('GET', `/groups/${hangout}`)).body as {
      memberships: { userId: string; status: string }[];
    };
    expect(pending.memberships.find((m) => m.userId === panda)?.status).toBe('requested');
  });
});

/** GET through the API from a given loopback address (the simulator listens on 127.0.0.1). */
function getFrom(
  localAddress: string,
  path: string,
  cookie: string,
): Promise<{ status: number; body: unknown }> {
  const url = new URL(sim.url + API + path);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        localAddress,
        headers: { cookie, 'user-agent': UA },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('sessions bound to the client address (off by default)', () => {
  it('lets a cookie work from any address by default', async () => {
    const cookie = await login(sim.url, vrchatAccounts.carol);
    expect((await getFrom('127.0.0.2', lumi(), cookie)).status).toBe(200);
  });

  for (const status of [401, 403] as const)
    it(`answers ${status} to a cookie used from another address when bound with ${status}`, async () => {
      await control('PATCH', '/config', { sessionAddressBinding: status });
      const cookie = await login(sim.url, vrchatAccounts.carol);
      expect((await getFrom('127.0.0.1', lumi(), cookie)).status).toBe(200);
      const elsewhere = await getFrom('127.0.0.2', lumi(), cookie);
      expect(elsewhere).toEqual({
        status,
        body: { error: { message: '"Missing Credentials"', status_code: status } },
      });
    });
});
