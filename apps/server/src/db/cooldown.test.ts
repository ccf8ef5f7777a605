import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/db.js';
import type { Database } from './client.js';
import { takeCooldown } from './cooldown.js';

describe('takeCooldown', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('lets the first caller go and tells the next how long to wait', async () => {
    const before = Date.now();
    expect(await takeCooldown(database.db, 'a', 5000)).toBe(0);
    const left = await takeCooldown(database.db, 'a', 5000);
    // What is left is the wait less the time the two calls took, however slow the machine (10 ms for the clocks'
    // rounding).
    expect(left).toBeGreaterThanOrEqual(5000 - (Date.now() - before) - 10);
    expect(left).toBeLessThanOrEqual(5000);
    expect(await takeCooldown(database.db, 'b', 5000)).toBe(0);
  });

  it('lets exactly one of many simultaneous callers go', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => takeCooldown(database.db, 'c', 5000)));
    expect(answers.filter((ms) => ms === 0)).toHaveLength(1);
  });

  it('lets the next caller go once the wait is over', async () => {
    expect(await takeCooldown(database.db, 'd', 50)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await takeCooldown(database.db, 'd', 50)).toBe(0);
  });
});
