/** Discord's epoch (2015-01-01); snowflake timestamps count milliseconds from it. */
export const DISCORD_EPOCH = 1_420_070_400_000n;

let increment = 0n;

/** A fresh snowflake for runtime-created objects, so discord.js can derive a plausible createdAt. */
export function newSnowflake(now = Date.now()): string {
  increment = (increment + 1n) % 4096n;
  return (((BigInt(now) - DISCORD_EPOCH) << 22n) | (1n << 17n) | increment).toString();
}

export const SNOWFLAKE_RE = /^(0|[1-9][0-9]*)$/;

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && SNOWFLAKE_RE.test(value) && value.length <= 20;
}

/**
 * Numeric comparison of snowflakes (strings of different length sort wrongly as text). Canonical
 * snowflakes have no leading zeros, so length then text order is numeric order, without BigInt
 * (sorting 100k members stays cheap).
 */
export function compareSnowflakes(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
