import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

/** The answer to one take: go now, or how long until a token is due (and whether a pause holds it). */
export type BudgetTake = { granted: true } | { granted: false; waitMs: number; pausedMs: number };

/**
 * A token bucket shared by every process on the database (table `platform_budgets`), e.g. one VRChat bot
 * account's request budget: whichever process takes a token, the account spends it.
 */
export interface SharedBudget {
  /** One atomic take (one round trip): a token, or how long to wait before asking again. */
  take(): Promise<BudgetTake>;
  /**
   * Holds every holder of the budget for `ms` (a 429): no take is granted before it ends, then one (the
   * probe) at once and the steady rate after it.
   */
  pause(ms: number): Promise<void>;
}

export interface BucketShape {
  /** Tokens per second. */
  ratePerSecond: number;
  /** Tokens a quiet bucket holds (the burst). */
  burst: number;
}

/**
 * Takes a token from the bucket `key`, refilled at `ratePerSecond` up to `burst`, on the database clock: a
 * single statement that locks the row only for itself (no transaction is left open, nothing else runs
 * inside it). A bucket seen the first time starts full.
 */
export async function takeToken(db: Db, key: string, shape: BucketShape): Promise<BudgetTake> {
  const rate = shape.ratePerSecond;
  const burst = Math.max(1, shape.burst);
  for (let attempt = 0; ; attempt++) {
    const { rows } = await db.execute<{ level: number; granted: boolean; paused_ms: number }>(sql`
      with cur as (
        select key, paused_until,
          least(${burst}::float8,
            tokens + greatest(0, extract(epoch from (now() - refilled_at)))::float8 * ${rate}::float8) as level
        from platform_budgets where key = ${key} for update
      ), took as (
        update platform_budgets b set tokens = cur.level - 1, refilled_at = now()
        from cur
        where b.key = cur.key and cur.level >= 1 and (cur.paused_until is null or cur.paused_until <= now())
        returning b.key
      )
      select cur.level::float8 as level, exists (select 1 from took) as granted,
        greatest(0, coalesce(extract(epoch from (cur.paused_until - now())), 0))::float8 * 1000 as paused_ms
      from cur`);
    const row = rows[0];
    if (row) {
      if (row.granted) return { granted: true };
      const pausedMs = Math.ceil(Number(row.paused_ms));
      // Paused: the probe's token is there when the pause ends; otherwise the next token's refill.
      const waitMs = pausedMs > 0 ? pausedMs : Math.ceil(((1 - Number(row.level)) / rate) * 1000);
      return { granted: false, waitMs: Math.max(1, waitMs), pausedMs };
    }
    // No row yet: a full bucket less the token taken now (another process may have made it meanwhile).
    const made = await db.execute(sql`
      insert into platform_budgets (key, tokens, refilled_at) values (${key}, ${burst - 1}, now())
      on conflict (key) do nothing returning key`);
    if (made.rows.length > 0) return { granted: true };
    if (attempt > 0) throw new Error(`The budget ${key} could not be read.`);
  }
}

/**
 * Holds the bucket `key` for `ms` from now (database clock); a longer pause already set stays. When it
 * ends, one token is there (the probe) and the bucket refills from there.
 */
export async function pauseBudget(db: Db, key: string, ms: number): Promise<void> {
  const until = sql`now() + ${Math.max(0, Math.round(ms))} * interval '1 millisecond'`;
  await db.execute(sql`
    insert into platform_budgets as b (key, tokens, refilled_at, paused_until)
    values (${key}, 1, ${until}, ${until})
    on conflict (key) do update set tokens = 1, refilled_at = excluded.paused_until,
      paused_until = excluded.paused_until
    where b.paused_until is null or b.paused_until < excluded.paused_until`);
}

/** The budget of bucket `key` on the database, shared by every process using it. */
export function dbBudget(db: Db, key: string, shape: BucketShape): SharedBudget {
  return {
    take: () => takeToken(db, key, shape),
    pause: (ms) => pauseBudget(db, key, ms),
  };
}

/** Gives a token back (the action it paid for did not happen), never above the burst. */
export async function refundToken(db: Db, key: string, shape: BucketShape): Promise<void> {
  await db.execute(sql`
    update platform_budgets set tokens = least(${Math.max(1, shape.burst)}::float8, tokens + 1)
    where key = ${key}`);
}

/**
 * How long a take from each bucket would wait now (ms; 0: a token is there): its pause, else the refill of the
 * next token at `ratePerSecond`. A bucket never taken from has no row and no wait.
 */
export async function budgetWaits(
  db: Db,
  keys: string[],
  ratePerSecond: number,
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const { rows } = await db.execute<{ key: string; level: number; paused_ms: number }>(sql`
    select key,
      (tokens + greatest(0, extract(epoch from (now() - refilled_at)))::float8 * ${ratePerSecond}::float8)::float8 as level,
      greatest(0, coalesce(extract(epoch from (paused_until - now())), 0))::float8 * 1000 as paused_ms
    from platform_budgets where key in (${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )})`);
  const refillMs = (level: number) => (level >= 1 ? 0 : ((1 - level) / ratePerSecond) * 1000);
  return new Map(
    rows.map((r) => [r.key, Math.ceil(Math.max(Number(r.paused_ms), refillMs(Number(r.level))))]),
  );
}
