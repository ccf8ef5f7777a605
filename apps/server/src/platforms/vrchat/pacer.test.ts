import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginGate } from './login-gate.js';
import {
  backoffDelay,
  Pacer,
  PacerAbortedError,
  PacerClosedError,
  PacerDeadlineError,
  rateLimitPause,
  retryAfterMs,
} from './pacer.js';

/** Acquires `count` slots and records when (fake ms since start) each was granted. */
function grants(pacer: Pacer, count: number, start: number): number[] {
  const at: number[] = [];
  for (let i = 0; i < count; i++) void pacer.acquire().then(() => at.push(Date.now() - start));
  return at;
}

describe('Pacer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets a burst through at once, then spaces requests at the sustained rate', async () => {
    const pacer = new Pacer({ ratePerSecond: 2, burst: 3 });
    const at = grants(pacer, 6, Date.now());
    await vi.advanceTimersByTimeAsync(2000);
    expect(at).toEqual([0, 0, 0, 500, 1000, 1500]);
  });

  it('holds every request during a pause, then sends one probe alone; its success resumes the steady rate', async () => {
    const pacer = new Pacer({ ratePerSecond: 10, burst: 5 });
    const start = Date.now();
    pacer.pause(1000);
    expect(pacer.pausedUntilMs()).toBe(start + 1000);
    const at = grants(pacer, 3, start);
    await vi.advanceTimersByTimeAsync(999);
    expect(at).toEqual([]);
    // The probe goes when the pause ends; nothing else until its answer, however long that takes.
    await vi.advanceTimersByTimeAsync(5000);
    expect(at).toEqual([1000]);
    pacer.recovered(start + 1000);
    await vi.advanceTimersByTimeAsync(1000);
    // The bucket restarted empty when the pause ended and refilled while the probe's answer was awaited.
    expect(at).toEqual([1000, 5999, 5999]);
    expect(pacer.pausedUntilMs()).toBeUndefined();
  });

  it('pauses again, with no second request, when the probe is refused too', async () => {
    const pacer = new Pacer({ ratePerSecond: 10, burst: 5 });
    const start = Date.now();
    pacer.pause(1000);
    const at = grants(pacer, 2, start);
    await vi.advanceTimersByTimeAsync(1000);
    expect(at).toEqual([1000]);
    pacer.pause(3000);
    await vi.advanceTimersByTimeAsync(2999);
    expect(at).toEqual([1000]);
    await vi.advanceTimersByTimeAsync(1);
    expect(at).toEqual([1000, 4000]);
  });

  it('never shortens a pause that is already longer', async () => {
    const pacer = new Pacer();
    const start = Date.now();
    pacer.pause(5000);
    pacer.pause(1000);
    expect(pacer.pausedUntilMs()).toBe(start + 5000);
  });

  it('rejects waiting callers when closed and keeps no timer', async () => {
    const pacer = new Pacer({ ratePerSecond: 1, burst: 1 });
    await pacer.acquire();
    const waiting = pacer.acquire();
    pacer.close();
    await expect(waiting).rejects.toBeInstanceOf(PacerClosedError);
    await expect(pacer.acquire()).rejects.toBeInstanceOf(PacerClosedError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses a caller with a deadline at once when a pause outlasts it, and says when to retry', async () => {
    const pacer = new Pacer();
    const start = Date.now();
    pacer.pause(60_000);
    const err = await pacer.acquire({ deadlineAt: start + 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PacerDeadlineError);
    expect((err as PacerDeadlineError).retryAt).toBe(start + 60_000);
    // A caller without a deadline (a job) keeps waiting for the pause.
    const at = grants(pacer, 1, start);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(at).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(at).toEqual([60_000]);
  });

  it('gives up at the deadline when the queue is too long', async () => {
    const pacer = new Pacer({ ratePerSecond: 1, burst: 1 });
    const start = Date.now();
    await pacer.acquire();
    const late = pacer.acquire({ deadlineAt: start + 500 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    expect(await late).toBeInstanceOf(PacerDeadlineError);
    expect(pacer.waiting).toBe(0);
  });

  it('sends interactive callers first, but never past background work that has waited agingMs longer', async () => {
    const pacer = new Pacer({ ratePerSecond: 1, burst: 1, agingMs: 5000 });
    const start = Date.now();
    await pacer.acquire();
    const order: string[] = [];
    const take = (name: string, interactive: boolean) =>
      void pacer
        .acquire({ interactive, deadlineAt: interactive ? Date.now() + 600_000 : undefined })
        .then(() => order.push(name));
    take('sync-1', false);
    take('sync-2', false);
    await vi.advanceTimersByTimeAsync(100);
    // A page asks while the sync waits: it goes first.
    take('page-1', true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(order).toEqual(['page-1']);
    // Pages keep asking, one a second, for a minute: the sync still gets its turns.
    for (let i = 2; i <= 60; i++) {
      take(`page-${i}`, true);
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(order).toContain('sync-1');
    expect(order).toContain('sync-2');
    // Each background request went within agingMs (plus the one ahead of it) of when it came.
    expect(order.indexOf('sync-1')).toBeLessThanOrEqual(6);
    expect(order.indexOf('sync-2')).toBeLessThanOrEqual(7);
    expect(Date.now() - start).toBeGreaterThan(60_000);
  });

  it('shares the budget fairly: a caller or server with many requests queued does not hold another one', async () => {
    const pacer = new Pacer({ ratePerSecond: 1, burst: 1 });
    await pacer.acquire();
    const order: string[] = [];
    const take = (name: string, share: string, interactive: boolean) =>
      void pacer
        .acquire({ share, interactive, deadlineAt: interactive ? Date.now() + 600_000 : undefined })
        .then(() => order.push(name));
    // One member loops 6 searches, one server's sync queues 6 reads; then another member and server ask.
    for (let i = 1; i <= 6; i++) take(`looper-${i}`, 'member:a', true);
    for (let i = 1; i <= 6; i++) take(`big-${i}`, 'guild:big', false);
    await vi.advanceTimersByTimeAsync(100);
    take('other', 'member:b', true);
    take('small', 'guild:small', false);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(order).toHaveLength(14);
    // The other member goes right after the looper's first; the small server right after the big one's first.
    expect(order.indexOf('other')).toBe(1);
    expect(order.indexOf('small')).toBeLessThan(order.indexOf('big-2'));
    // Each share keeps its own order.
    const of = (prefix: string) => order.filter((n) => n.startsWith(prefix));
    expect(of('looper')).toEqual(['looper-1', 'looper-2', 'looper-3', 'looper-4', 'looper-5', 'looper-6']);
  });

  it('does not end a pause for an answer to a request sent before it began', () => {
    const pacer = new Pacer();
    const start = Date.now();
    pacer.pause(10_000);
    pacer.recovered(start - 1);
    expect(pacer.pausedUntilMs()).toBe(start + 10_000);
  });

  it("refuses a queued request whose job is told to stop, and the others' turns are kept", async () => {
    const pacer = new Pacer({ ratePerSecond: 1, burst: 1 });
    const start = Date.now();
    const stop = new AbortController();
    const at = grants(pacer, 1, start); // takes the burst
    const stopped = pacer.acquire({ signal: stop.signal });
    const later = grants(pacer, 1, start);
    stop.abort();
    await expect(stopped).rejects.toBeInstanceOf(PacerAbortedError);
    await vi.advanceTimersByTimeAsync(1000);
    // The stopped request gave its turn up: the next one goes at the first refill.
    expect([...at, ...later]).toEqual([0, 1000]);
    expect(pacer.waiting).toBe(0);
    await expect(pacer.acquire({ signal: stop.signal })).rejects.toBeInstanceOf(PacerAbortedError);
  });
});

describe('rateLimitPause and retryAfterMs', () => {
  it('never guesses a pause below the base, and triples it per 429 in a row up to the cap', () => {
    expect([0, 1, 2, 3, 10].map((n) => rateLimitPause(n, 60_000, 3_600_000, () => 0))).toEqual([
      60_000, 180_000, 540_000, 1_620_000, 3_600_000,
    ]);
    expect(rateLimitPause(0, 60_000, 3_600_000, () => 1)).toBe(66_000);
  });

  it('reads Retry-After as seconds (fractions too) or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('60', now)).toBe(60_000);
    expect(retryAfterMs('0.3', now)).toBe(300);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt up to the cap, with half of each delay random', () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, 1000, 5000, () => 0))).toEqual([
      500, 1000, 2000, 2500, 2500,
    ]);
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, 1000, 5000, () => 1))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
  });
});

describe('LoginGate', () => {
  let now = 0;
  const gate = () => new LoginGate({ cooldownMs: 1000, maxCooldownMs: 3000, now: () => now });
  beforeEach(() => {
    now = 1_000_000;
  });

  it('allows one attempt per cooldown, even after a success', () => {
    const g = gate();
    expect(g.begin()).toBeUndefined();
    g.succeed();
    now += 999;
    expect(g.begin()?.refused).toMatch(/moments ago/);
    now += 1;
    expect(g.begin()).toBeUndefined();
  });

  it('doubles the cooldown with each failure in a row, up to the cap, and says why', () => {
    const g = gate();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect(g.begin()).toBeUndefined();
      g.fail('Invalid Username/Email or Password');
      waits.push(g.nextAttemptAt - now);
      expect(g.begin()?.refused).toMatch(/failed: Invalid Username/);
      now = g.nextAttemptAt;
    }
    expect(waits).toEqual([1000, 2000, 3000, 3000]);
    g.begin();
    g.succeed();
    now += 1000;
    g.begin();
    g.fail('x');
    expect(g.nextAttemptAt - now).toBe(1000);
  });

  it('keeps the attempt open between the Basic login and its 2FA step', () => {
    const g = gate();
    g.begin();
    expect(g.open).toBe(true);
    g.succeed();
    expect(g.open).toBe(false);
  });
});
