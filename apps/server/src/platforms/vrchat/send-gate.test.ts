import { vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimHarness, startSimHarness } from '../testing.js';
import { createVrchatPlatform, memorySessionStore } from './index.js';
import { SendGate } from './send-gate.js';

const SCALE = 20;
const aurora = vrchatSeed.userIds['Aurora Skye'];

describe('VRChat sends stay within the rate and burst as they leave (strict simulator, time scale 20)', () => {
  let sim: SimHarness;
  beforeAll(async () => {
    // VRChat's strict bucket (5 at once, 1 a second) at 20 times the speed, as the scale bench runs it.
    sim = await startSimHarness({ timeScale: SCALE });
  });
  afterAll(() => sim?.close());

  it('a burst the budget granted but that left late (a stalled process) does not meet a 429', async () => {
    // The budget granted every take: to VRChat that is what a process stalled between the grants and the
    // sends looks like (the stalled burst leaves together with the one the budget refilled meanwhile).
    const staleBudget = { take: async () => ({ granted: true as const }), pause: async () => {} };
    const vrchat = createVrchatPlatform({
      config: sim.config.vrchat,
      sessionStore: memorySessionStore(),
      log: sim.log,
      pacer: { timeScale: SCALE },
      sharedBudget: () => staleBudget,
    });
    try {
      await vrchat.start();
      await sim.control('POST', '/vrchat/reset-sessions'); // the login's requests spent nothing
      await sim.control('DELETE', '/vrchat/counters');
      const users = await Promise.all(Array.from({ length: 8 }, () => vrchat.getUser(aurora)));
      expect(users.map((u) => u?.displayName)).toEqual(Array(8).fill('Aurora Skye'));
      const counters = (await sim.control('GET', '/vrchat/counters')).body;
      expect(counters).toMatchObject({ requests: 8, rateLimited: 0 });
    } finally {
      await vrchat.close();
    }
  });

  it('lets a burst go at once, then one per interval', () => {
    let now = 0;
    const gate = new SendGate(1, 3, () => now);
    expect([gate.reserve(), gate.reserve(), gate.reserve(), gate.reserve(), gate.reserve()]).toEqual([
      0, 0, 0, 1000, 2000,
    ]);
    now = 10_000; // a quiet spell refills the burst
    expect([gate.reserve(), gate.reserve(), gate.reserve(), gate.reserve()]).toEqual([0, 0, 0, 1000]);
  });
});
