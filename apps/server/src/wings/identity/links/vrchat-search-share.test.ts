import { vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../../../test/app.js';
import { waitFor } from '../../../platforms/testing.js';

const WAIT = /^Please wait \d+s before searching VRChat again\.$/;

/**
 * One member looping VRChat searches (issue #30): against the strict simulator at VRChat's real pace
 * (1 request a second on the bot account), a member past their share is told to wait, and another
 * member's search is answered, not queued behind theirs until the deadline (10 s) answers 503.
 */
describe("each member's share of the bot account's VRChat budget (strict simulator, real pace)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ simulator: true, vrchatTimeScale: 1 });
  });
  afterAll(() => t?.close());

  const search = (user: { session: string }, query: string) =>
    t.inject({ method: 'GET', url: `/api/users/search?query=${query}`, session: user.session });

  it('a member looping searches is refused past their share; another member is answered meanwhile', async () => {
    const looper = await signIn(t);
    const other = await signIn(t);
    await t.control('DELETE', '/vrchat/counters');
    const loop = Promise.all(Array.from({ length: 20 }, (_, i) => search(looper, `loop${i}`)));
    // The other member asks once the loop's first searches reached VRChat (the rest, if let through, queue).
    await waitFor(async () => {
      const { body } = await t.control('GET', '/vrchat/counters');
      return (
        ((body as { byRoute: Record<string, { requests: number }> }).byRoute['GET /users']?.requests ?? 0) >=
        3
      );
    }, 30_000);
    const theirs = await search(other, 'someone');
    expect(theirs.statusCode).toBe(200);
    const answers = await loop;
    const ok = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(ok.length).toBeLessThanOrEqual(3);
    expect(ok.length + refused.length).toBe(20);
    for (const r of refused) expect(r.json().message).toMatch(WAIT);
    // Past the share, the member waits their turn; nobody else's search is held by it.
    expect((await search(other, 'again')).statusCode).toBe(200);
  }, 60_000);

  it('a search VRChat did not answer gives the share back', async () => {
    const member = await signIn(t);
    await t.control('POST', '/faults', { platform: 'vrchat', kind: 'server_error', pathContains: '/users' });
    // As many failures as the share holds: had they spent it, the next search would be refused.
    for (let i = 0; i < 3; i++) expect((await search(member, `failing${i}`)).statusCode).toBe(503);
    await t.control('DELETE', '/faults');
    expect((await search(member, 'works')).statusCode).toBe(200);
  }, 60_000);

  it('a member looping account checks is refused past their share (10), with a sentence; another member is answered', async () => {
    const looper = await signIn(t);
    const other = await signIn(t);
    const vrcId = vrchatSeed.userIds['Jasper Vale'];
    const check = (user: { session: string }) =>
      t.inject({ method: 'GET', url: `/api/users/check?vrcId=${vrcId}`, session: user.session });
    const answers = await Promise.all(Array.from({ length: 13 }, () => check(looper)));
    const ok = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(ok.length).toBe(10);
    expect(refused.length).toBe(3);
    for (const r of refused)
      expect(r.json().message).toMatch(/^Please wait \d+s before asking VRChat about an account again\.$/);
    expect((await check(other)).statusCode).toBe(200);
  }, 60_000);
});
