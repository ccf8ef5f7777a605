import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/db.js';
import { Pacer, PacerUnavailableError } from '../platforms/vrchat/pacer.js';
import { dbBudget, pauseBudget, refundToken, takeToken } from './budget.js';
import type { Database } from './client.js';

const slow = { ratePerSecond: 0.1, burst: 3 };

describe('the shared token bucket (platform_budgets)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('grants the burst, then tells how long until the next token', async () => {
    const takes = [];
    for (let i = 0; i < 4; i++) takes.push(await takeToken(database.db, 'burst', slow));
    expect(takes.slice(0, 3)).toEqual([{ granted: true }, { granted: true }, { granted: true }]);
    expect(takes[3]).toMatchObject({ granted: false, pausedMs: 0 });
    const wait = (takes[3] as { waitMs: number }).waitMs;
    expect(wait).toBeGreaterThan(5000);
    expect(wait).toBeLessThanOrEqual(10_000);
    // A token given back is there at once.
    await refundToken(database.db, 'burst', slow);
    expect(await takeToken(database.db, 'burst', slow)).toEqual({ granted: true });
  });

  it('grants exactly the burst to many simultaneous takers', async () => {
    const takes = await Promise.all(Array.from({ length: 8 }, () => takeToken(database.db, 'race', slow)));
    expect(takes.filter((t) => t.granted)).toHaveLength(3);
  });

  it('holds every taker while paused, then grants one (the probe)', async () => {
    const fast = { ratePerSecond: 1000, burst: 3 };
    expect(await takeToken(database.db, 'paused', fast)).toEqual({ granted: true });
    await pauseBudget(database.db, 'paused', 60_000);
    const held = await takeToken(database.db, 'paused', fast);
    expect(held).toMatchObject({ granted: false });
    expect((held as { pausedMs: number }).pausedMs).toBeGreaterThan(50_000);
    // A shorter pause does not cut a longer one short.
    await pauseBudget(database.db, 'paused', 10);
    expect((await takeToken(database.db, 'paused', fast)).granted).toBe(false);
    await pauseBudget(database.db, 'ends', 30);
    await new Promise((r) => setTimeout(r, 60));
    expect(await takeToken(database.db, 'ends', { ratePerSecond: 0.01, burst: 3 })).toEqual({
      granted: true,
    });
    expect((await takeToken(database.db, 'ends', { ratePerSecond: 0.01, burst: 3 })).granted).toBe(false);
  });

  it('a pacer on a budget whose database is away fails its requests with a sentence, never hangs', async () => {
    const gone = await openTestDatabase();
    await gone.close();
    const pacer = new Pacer({ budget: dbBudget(gone.db, 'gone', slow), budgetTimeoutMs: 1000 });
    const waiting = [pacer.acquire({ interactive: true }), pacer.acquire()];
    for (const w of waiting) await expect(w).rejects.toBeInstanceOf(PacerUnavailableError);
    await expect(pacer.acquire()).rejects.toThrow(
      /^VRChat requests are on hold: .*\. Try again in a few seconds\.$/,
    );
    pacer.close();
  });
});
