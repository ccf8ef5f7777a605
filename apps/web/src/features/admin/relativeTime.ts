/** Within this many milliseconds of now a time reads 'just now' (spec section 9). */
export const JUST_NOW_MS = 500;

const UNITS: [string, number][] = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

/** '1m 5s', '2h 3m 4s', '1d 0h 0m 1s': whole seconds, from the largest unit that is not zero. */
export function formatDuration(ms: number): string {
  let left = Math.max(1, Math.round(Math.abs(ms) / 1000));
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0 || parts.length > 0) parts.push(`${n}${unit}`);
  }
  return parts.join(' ');
}

/** A time relative to now: 'in 1m 5s', '2h 3m 4s ago', 'just now'; 'Never' when there is none. */
export function formatRelative(time: string | Date | null | undefined, now: number): string {
  if (time === null || time === undefined) return 'Never';
  const at = typeof time === 'string' ? Date.parse(time) : time.getTime();
  if (Number.isNaN(at)) return 'Never';
  const diff = at - now;
  if (Math.abs(diff) < JUST_NOW_MS) return 'just now';
  return diff > 0 ? `in ${formatDuration(diff)}` : `${formatDuration(diff)} ago`;
}

const EVERY: [singular: string, seconds: number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** A timer in words: 'every 30 seconds', 'every minute', 'every 6 hours', 'every 90 seconds' (never rounded). */
export function formatEvery(seconds: number): string {
  for (const [unit, size] of EVERY) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
    }
  }
  return seconds === 1 ? 'every second' : `every ${seconds} seconds`;
}
