import { eq, sql } from 'drizzle-orm';
import type { Db } from './client.js';
import { cooldowns } from './schema/index.js';

/**
 * Starts the wait for `key` unless one is running. Answers 0 when the caller may go ahead, else the
 * milliseconds left. One atomic statement on the database clock, so every process shares the limit.
 */
export async function takeCooldown(db: Db, key: string, ms: number): Promise<number> {
  const until = sql`now() + ${ms} * interval '1 millisecond'`;
  const taken = await db
    .insert(cooldowns)
    .values({ key, until })
    .onConflictDoUpdate({ target: cooldowns.key, set: { until }, setWhere: sql`${cooldowns.until} <= now()` })
    .returning({ key: cooldowns.key });
  if (taken.length > 0) return 0;
  const left = await db
    .select({ ms: sql<number>`greatest(0, extract(epoch from (${cooldowns.until} - now())) * 1000)` })
    .from(cooldowns)
    .where(eq(cooldowns.key, key));
  return Math.ceil(Number(left[0]?.ms ?? 0));
}

/** Gives a cooldown back (the action it paid for failed), so the caller may try again at once. */
export async function releaseCooldown(db: Db, key: string): Promise<void> {
  await db.delete(cooldowns).where(eq(cooldowns.key, key));
}
