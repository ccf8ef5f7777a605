/**
 * One queue for every VRChat request: a token bucket (steady rate with a small burst) and a global pause
 * that a 429 sets. VRChat publishes no limits and its 429 carries no headers, so we stay well below any
 * plausible limit and, once told off, stop everything for a while. Timers run only while someone waits,
 * never on a fixed clock.
 */
export interface PacerOptions {
  /** Sustained requests per second (default 1). */
  ratePerSecond?: number;
  /** Requests that may go at once after a quiet spell (default 3). */
  burst?: number;
  /**
   * During a pause, how long after the last 429 (or probe) a caller with a deadline may send one request
   * anyway to learn whether the limit has lifted (default 5 s). Callers without a deadline just wait.
   */
  probeIntervalMs?: number;
  now?: () => number;
}

/** Options of one acquire: a caller with a deadline gives up instead of waiting past it. */
export interface AcquireOptions {
  /** Epoch ms after which the caller would rather fail than keep waiting (interactive requests). */
  deadlineAt?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
  deadlineAt?: number;
  timer?: NodeJS.Timeout;
}

export class PacerClosedError extends Error {
  constructor() {
    super('The VRChat client is closed.');
  }
}

/** The caller's deadline passes before the queue (or a rate-limit pause) would let it go. */
export class PacerDeadlineError extends Error {
  constructor(
    /** When a request is expected to go again (epoch ms). */
    readonly retryAt: number,
  ) {
    super('VRChat is rate limiting requests.');
  }
}

export class Pacer {
  private readonly rate: number;
  private readonly burst: number;
  private readonly now: () => number;
  private tokens: number;
  private refilledAt: number;
  private pausedUntil = 0;
  private pausedAt = Number.NEGATIVE_INFINITY;
  private probedAt = Number.NEGATIVE_INFINITY;
  private readonly probeIntervalMs: number;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly sleepers = new Set<() => void>();
  private closed = false;

  constructor(opts: PacerOptions = {}) {
    this.rate = opts.ratePerSecond ?? 1;
    this.burst = Math.max(1, opts.burst ?? 3);
    this.now = opts.now ?? Date.now;
    this.probeIntervalMs = opts.probeIntervalMs ?? 5_000;
    this.tokens = this.burst;
    this.refilledAt = this.now();
  }

  /**
   * Resolves when the caller may send one request (FIFO). With a deadline it rejects with
   * PacerDeadlineError once the deadline passes, or at once when a pause outlasts it; then, at most once
   * per probe interval, it lets the caller through as a probe instead, so the end of a storm is noticed.
   */
  acquire(opts: AcquireOptions = {}): Promise<void> {
    if (this.closed) return Promise.reject(new PacerClosedError());
    const { deadlineAt } = opts;
    const now = this.now();
    if (deadlineAt !== undefined && this.pausedUntil > Math.max(now, deadlineAt)) {
      const probeAt = Math.max(this.pausedAt, this.probedAt) + this.probeIntervalMs;
      if (probeAt <= now) {
        this.probedAt = now;
        return Promise.resolve();
      }
      // The next probe comes before the deadline: wait for it, then look again (the pause may be over).
      if (probeAt <= deadlineAt) return this.sleep(probeAt - now).then(() => this.acquire(opts));
      return Promise.reject(new PacerDeadlineError(this.pausedUntil));
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, deadlineAt };
      if (deadlineAt !== undefined)
        waiter.timer = setTimeout(
          () => {
            const i = this.queue.indexOf(waiter);
            if (i < 0) return;
            this.queue.splice(i, 1);
            reject(new PacerDeadlineError(Math.max(this.pausedUntil, this.now() + 1000 / this.rate)));
          },
          Math.max(0, deadlineAt - now),
        );
      this.queue.push(waiter);
      this.drain();
    });
  }

  /**
   * Holds every queued and future request until `ms` from now; the bucket restarts empty afterwards.
   * Queued callers whose deadline ends before the pause are looked at again (a probe, or a refusal).
   */
  pause(ms: number): void {
    const now = this.now();
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
    this.pausedAt = now;
    this.tokens = 0;
    this.refilledAt = this.pausedUntil;
    for (const w of [...this.queue]) {
      if (w.deadlineAt === undefined || w.deadlineAt >= this.pausedUntil) continue;
      this.queue.splice(this.queue.indexOf(w), 1);
      clearTimeout(w.timer);
      this.acquire({ deadlineAt: w.deadlineAt }).then(w.resolve, w.reject);
    }
    this.reschedule();
  }

  /**
   * VRChat answered a request sent at `sentAt` without a 429. If it was sent after the last pause began
   * (a probe), the limit has lifted: the pause ends now and waiting requests go at the steady rate.
   */
  recovered(sentAt: number): void {
    if (this.pausedUntil <= this.now() || sentAt < this.pausedAt) return;
    this.pausedUntil = 0;
    this.refilledAt = this.now();
    this.reschedule();
  }

  /** When the current pause ends, or undefined when not paused. */
  pausedUntilMs(): number | undefined {
    return this.pausedUntil > this.now() ? this.pausedUntil : undefined;
  }

  get waiting(): number {
    return this.queue.length;
  }

  close(): void {
    this.closed = true;
    for (const wake of [...this.sleepers]) wake();
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.queue.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new PacerClosedError());
    }
  }

  /** Waits `ms`; close() ends the wait early (the caller's next acquire then rejects). */
  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  private refill(now: number): void {
    if (now <= this.refilledAt) return;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.rate);
    this.refilledAt = now;
  }

  private drain(): void {
    if (this.timer) return;
    while (this.queue.length) {
      const now = this.now();
      if (now < this.pausedUntil) {
        this.wake(this.pausedUntil - now);
        return;
      }
      this.refill(now);
      if (this.tokens < 1) {
        this.wake(Math.ceil(((1 - this.tokens) / this.rate) * 1000));
        return;
      }
      this.tokens -= 1;
      const w = this.queue.shift();
      clearTimeout(w?.timer);
      w?.resolve();
    }
  }

  private wake(ms: number): void {
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.drain();
      },
      Math.max(1, ms),
    );
  }

  private reschedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.drain();
  }
}

/** Exponential backoff with "equal jitter": half fixed, half random, so retries never line up. */
export function backoffDelay(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
