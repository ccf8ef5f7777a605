import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { hostAndGuestRoles, signInMember, vrchatUser } from '../../../../test/factories.js';

const { hangout } = seedGuildIds;
const RATE_LIMITED = /^VRChat is rate limiting requests\. Try again in \d+ seconds?\.$/;

/**
 * VRChat rate limiting us (issue #12): requests someone waits for give up at a deadline (10 s) with a 503
 * and Retry-After; jobs keep waiting. Real pauses here (2.2 s tripling up to 4.4 s, deterministic), not the
 * fast test ones. No request goes while a pause lasts: a probe inside VRChat's block would extend it.
 */
describe('interactive VRChat calls under rate limits (against the simulators)', () => {
  let t: TestApp;
  let host: { id: string; session: string };
  let vrcId: string;
  let mainRole: string;

  beforeAll(async () => {
    t = await createTestApp({
      ...laxSimulator.forOnlyInjected429s,
      vrchatPacer: { rateLimitPauseMs: 2000, rateLimitPauseMaxMs: 4000, random: () => 1 },
    });
    mainRole = (await hostAndGuestRoles(t, hangout.id, 1)).host;
    host = await signInMember(t, hangout.id, { roles: [mainRole] });
    vrcId = (await vrchatUser(t)).id;
  });
  afterEach(async () => {
    await t.control('DELETE', '/faults');
  });
  afterAll(() => t?.close());

  const storm = async (fault: object = {}) =>
    expect(
      (
        await t.control('POST', '/faults', {
          platform: 'vrchat',
          kind: 'rate_limit',
          pathContains: '/users',
          ...fault,
        })
      ).status,
    ).toBeLessThan(300);
  const timed = async <T>(run: () => Promise<T>) => {
    const start = Date.now();
    const value = await run();
    return { value, ms: Date.now() - start };
  };
  const search = () => t.inject({ method: 'GET', url: '/api/users/search?query=abc', session: host.session });
  const link = () =>
    t.inject({ method: 'POST', url: `/api/users/link?vrcId=${vrcId}`, session: host.session });
  const guestSearch = (as = host) =>
    t.inject({
      method: 'GET',
      url: `/api/users/guests/${hangout.id}/search?vrcQuery=abc`,
      session: as.session,
    });

  it('during a storm, link and searches answer 503 with Retry-After by the deadline; after it, promptly', async () => {
    await storm();
    const answers = await Promise.all([link, search, () => guestSearch()].map((call) => timed(call)));
    for (const { value: res, ms } of answers) {
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(RATE_LIMITED);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(ms).toBeLessThan(20_000);
    }
    // No caller probes while the pause lasts; the first call after it is the probe, and its success ends it.
    const state = t.platforms?.vrchat.state();
    expect(state?.status).toBe('rate_limited');
    await t.control('DELETE', '/faults');
    const until = Date.parse(state?.rateLimitedUntil ?? '');
    await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
    const after = await timed(search);
    expect(after.value.statusCode).toBe(200);
    expect(after.ms).toBeLessThan(6_000);
    const next = await timed(search);
    expect(next.value.statusCode).toBe(200);
    expect(next.ms).toBeLessThan(2_000);
    // Nor does the guest search refuse with its cooldown: the failed one did not spend it.
    expect((await guestSearch()).statusCode).toBe(200);
  }, 60_000);

  it('a guest search VRChat did not answer leaves the cooldown unspent', async () => {
    await t.control('POST', '/faults', { platform: 'vrchat', kind: 'server_error', pathContains: '/users' });
    const other = await signInMember(t, hangout.id, { roles: [mainRole] });
    const failed = await guestSearch(other);
    expect(failed.statusCode).toBe(503);
    await t.control('DELETE', '/faults');
    const again = await guestSearch(other);
    expect(again.json().message ?? '').not.toMatch(/before searching VRChat again/);
    expect(again.statusCode).toBe(200);
    // A search that ran does spend it.
    expect((await guestSearch(other)).statusCode).toBe(429);
  }, 60_000);

  it('an answer that hangs ends at the deadline too (not at the 15 s request timeout), with a sentence', async () => {
    await t.control('POST', '/faults', {
      platform: 'vrchat',
      kind: 'slow',
      count: 1,
      delayMs: 40_000,
      pathContains: '/users',
    });
    const { value: res, ms } = await timed(search);
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe('VRChat is not reachable right now. Try again later.');
    expect(ms).toBeGreaterThanOrEqual(9_000);
    expect(ms).toBeLessThan(13_000);
    // The deadline was this caller's: the platform is not marked unreachable for it.
    expect(t.platforms?.vrchat.state().status).toBe('ok');
    await t.control('DELETE', '/faults');
    expect((await search()).statusCode).toBe(200);
  }, 60_000);

  it('a call outside a request (a job) keeps waiting past the deadline and gets its answer', async () => {
    // Three 429s in a row: pauses of 2.2, 4.4 and 4.4 s, longer together than the 10 s deadline.
    await storm({ count: 3 });
    const { value, ms } = await timed(() => t.ctx.vrchat.searchUsers('abc'));
    expect(Array.isArray(value)).toBe(true);
    expect(ms).toBeGreaterThan(10_000);
  }, 60_000);
});
