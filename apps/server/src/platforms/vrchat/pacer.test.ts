import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginGate } from './login-gate.js';
import { backoffDelay, Pacer, PacerClosedError, PacerDeadlineError } from './pacer.js';

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

  it('holds every queued request during a pause and restarts with an empty bucket', async () => {
    const pacer = new Pacer({ ratePerSecond: 10, burst: 5 });
    const start = Date.now();
    pacer.pause(1000);
    expect(pacer.pausedUntilMs()).toBe(start + 1000);
    const at = grants(pacer, 3, start);
    await vi.advanceTimersByTimeAsync(999);
    expect(at).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(at).toEqual([1100, 1200, 1300]);
    expect(pacer.pausedUntilMs()).toBeUndefined();
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
    const pacer = new Pacer({ probeIntervalMs: 5000 });
    const start = Date.now();
    pacer.pause(60_000);
    const err = await pacer.acquire({ deadlineAt: start + 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PacerDeadlineError);
    expect((err as PacerDeadlineError).retryAt).toBe(start + 60_000);
    // A caller without a deadline (a job) keeps waiting for the pause.
    const at = grants(pacer, 1, start);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(at).toEqual([]);
    await vi.advanceTimersByTimeAsync(1001);
    expect(at).toEqual([61_000]);
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

  it('lets one interactive caller probe per interval during a long pause; its success ends the pause', async () => {
    const pacer = new Pacer({ ratePerSecond: 10, burst: 5, probeIntervalMs: 5000 });
    const start = Date.now();
    pacer.pause(120_000);
    // 3 s into the pause, a caller with 10 s to go waits for the probe slot at 5 s and goes.
    await vi.advanceTimersByTimeAsync(3000);
    const probe = grants(pacer, 0, start);
    void pacer.acquire({ deadlineAt: Date.now() + 10_000 }).then(() => probe.push(Date.now() - start));
    // A second one in the same interval has no probe slot before its deadline: refused.
    await vi.advanceTimersByTimeAsync(2000);
    expect(probe).toEqual([5000]);
    await expect(pacer.acquire({ deadlineAt: Date.now() + 1000 })).rejects.toBeInstanceOf(PacerDeadlineError);
    // A patient caller still waits; the probe's success lifts the pause for it too.
    const patient = grants(pacer, 1, start);
    pacer.recovered(start + 5000);
    await vi.advanceTimersByTimeAsync(200);
    expect(patient).toEqual([5100]);
    expect(pacer.pausedUntilMs()).toBeUndefined();
  });

  it('does not end a pause for an answer to a request sent before it began', () => {
    const pacer = new Pacer();
    const start = Date.now();
    pacer.pause(10_000);
    pacer.recovered(start - 1);
    expect(pacer.pausedUntilMs()).toBe(start + 10_000);
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
