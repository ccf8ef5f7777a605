import { describe, expect, it } from 'vitest';
import { formatDuration, formatEvery, formatRelative } from './relativeTime';

const now = Date.parse('2026-11-23T12:00:00.000Z');
const at = (ms: number) => new Date(now + ms).toISOString();

describe('formatRelative', () => {
  it('reads the spec examples', () => {
    expect(formatRelative(at(65_000), now)).toBe('in 1m 5s');
    expect(formatRelative(at(-(2 * 3600 + 3 * 60 + 4) * 1000), now)).toBe('2h 3m 4s ago');
  });

  it("says 'just now' within 500 ms either side, and seconds beyond", () => {
    expect(formatRelative(at(0), now)).toBe('just now');
    expect(formatRelative(at(-499), now)).toBe('just now');
    expect(formatRelative(at(499), now)).toBe('just now');
    expect(formatRelative(at(-500), now)).toBe('1s ago');
    expect(formatRelative(at(1_400), now)).toBe('in 1s');
  });

  it('keeps inner zero units and drops leading ones', () => {
    expect(formatRelative(at(-(3600 + 5) * 1000), now)).toBe('1h 0m 5s ago');
    expect(formatRelative(at(59_000), now)).toBe('in 59s');
    expect(formatRelative(at((86_400 + 1) * 1000), now)).toBe('in 1d 0h 0m 1s');
  });

  it("answers 'Never' for a task that has not run", () => {
    expect(formatRelative(null, now)).toBe('Never');
    expect(formatRelative('not a date', now)).toBe('Never');
  });
});

describe('formatDuration', () => {
  it('is the same either way round', () => {
    expect(formatDuration(-125_000)).toBe(formatDuration(125_000));
    expect(formatDuration(125_000)).toBe('2m 5s');
  });
});

describe('formatEvery', () => {
  it('says a timer in words, never rounding it', () => {
    expect(formatEvery(21_600)).toBe('every 6 hours');
    expect(formatEvery(3600)).toBe('every hour');
    expect(formatEvery(900)).toBe('every 15 minutes');
    expect(formatEvery(60)).toBe('every minute');
    expect(formatEvery(30)).toBe('every 30 seconds');
    expect(formatEvery(90)).toBe('every 90 seconds');
    expect(formatEvery(86_400)).toBe('every day');
  });
});
