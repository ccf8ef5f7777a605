/**
 * Discord 429s and the /api deadline: under a storm of 429s an interactive request that calls Discord is
 * answered within 12 s (503, Retry-After, a sentence), a change that gave up is not made, and each request
 * sends a 429'd call at most twice (the invalid requests Discord bans an IP for stay few).
 */

import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../test/app.js';
import {
  appWithHangoutOwner,
  discordMember,
  hostAndGuestRoles,
  signInMember,
  simulatorRoles,
} from '../../../test/factories.js';

const { hangout } = seedGuildIds;
const RATE_LIMITED = /^Discord is rate limiting requests\. Try again in \d+ seconds?\.$/;

describe('Discord rate limits and interactive requests (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let roles: { host: string; guestRole: string };

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forOnlyInjected429s));
    roles = await hostAndGuestRoles(t, hangout.id, 5, ['Storm Host', 'Storm Guest']);
  });
  afterEach(async () => {
    await t.control('DELETE', '/faults');
    await t.control('DELETE', '/discord/rate-limits/bans');
  });
  afterAll(() => t?.close());

  const invalidRequests = async () => {
    const view = (await t.control('GET', '/discord/rate-limits')).body;
    return Object.values<number>(view.invalidRequests).reduce((a, b) => a + b, 0);
  };
  /** Sends a request and answers it with how long it took. */
  const timed = async (req: Parameters<TestApp['inject']>[0]) => {
    const started = Date.now();
    const res = await t.inject(req);
    return { res, ms: Date.now() - started };
  };
  const expectRateLimited = (res: Awaited<ReturnType<TestApp['inject']>>) => {
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().message).toMatch(RATE_LIMITED);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  };

  // The channel list and the logging settings are read from the server snapshot (no Discord call); the guest
  // assign gives a role at Discord.
  it('answers the channel list, the logging settings and a guest assign within 12 s in a 429 storm, assigning nothing', async () => {
    const host = await signInMember(t, hangout.id, { roles: [roles.host] });
    const guest = await discordMember(t, hangout.id);
    const before = await invalidRequests();
    await t.control('POST', '/faults', { platform: 'discord', kind: 'rate_limit' });

    const [channels, logging, assign] = await Promise.all([
      timed({ method: 'GET', url: `/api/guilds/channels/${hangout.id}/channels`, session: owner.session }),
      timed({ method: 'GET', url: `/api/guilds/logging/${hangout.id}/config`, session: owner.session }),
      timed({
        method: 'POST',
        url: `/api/users/guests/${hangout.id}/assign`,
        session: host.session,
        payload: { discordId: guest.id },
      }),
    ]);
    for (const { res, ms } of [channels, logging, assign]) {
      expect(ms).toBeLessThan(12_000);
      expect(res.statusCode, res.body).not.toBe(500);
    }
    // The channels come from the snapshot; the caller's permission check may still ask Discord for their member
    // while the member mirror is filling, and then the storm answers it.
    if (channels.res.statusCode !== 200) expectRateLimited(channels.res);
    expectRateLimited(assign.res);
    // Each Discord request was sent at most twice (once, and once after retry_after).
    const sent = (await invalidRequests()) - before;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(12);

    // The assign that gave up is not done: no role at Discord, no guest on the next view.
    await t.control('DELETE', '/faults');
    expect(await simulatorRoles(t, hangout.id, guest.id)).not.toContain(roles.guestRole);
    const view = await t.inject({
      method: 'GET',
      url: `/api/users/guests/${hangout.id}`,
      session: host.session,
    });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().guests).toEqual([]);
  });

  it('gives up at once, with when to try again, when Discord asks for a wait past the deadline', async () => {
    // An IP ban: every answer is a 429 whose Retry-After is the minutes left of the ban.
    await t.control('PATCH', '/discord/rate-limits', {
      invalidRequestLimit: 1,
      invalidRequestBanMs: 120_000,
    });
    try {
      const host = await signInMember(t, hangout.id, { roles: [roles.host] });
      const guest = await discordMember(t, hangout.id);
      await t.control('POST', '/faults', { platform: 'discord', kind: 'rate_limit', count: 2 });
      const { res, ms } = await timed({
        method: 'POST',
        url: `/api/users/guests/${hangout.id}/assign`,
        session: host.session,
        payload: { discordId: guest.id },
      });
      expect(ms).toBeLessThan(12_000);
      expectRateLimited(res);
    } finally {
      await t.control('PATCH', '/discord/rate-limits', {
        invalidRequestLimit: 10_000,
        invalidRequestBanMs: 3_600_000,
      });
    }
  });
});
