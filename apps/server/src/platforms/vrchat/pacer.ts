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
  now?: () => number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

export class PacerClosedError extends Error {
  constructor() {
    super('The VRChat client is closed.');
  }
}

export class Pacer {
  private readonly rate: number;
  private readonly burst: number;
  private readonly now: () => number;
  private tokens: number;
  private refilledAt: number;
  private pausedUntil = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(opts: PacerOptions = {}) {
    this.rate = opts.ratePerSecond ?? 1;
    this.burst = Math.max(1, opts.burst ?? 3);
    this.now = opts.now ?? Date.now;
    this.tokens = this.burst;
    this.refilledAt = this.now();
  }

  /** Resolves when the caller may send one request (FIFO). */
  acquire(): Promise<void> {
    if (this.closed) return Promise.reject(new PacerClosedError());
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.drain();
    });
  }

  /** Holds every queued and future request until `ms` from now; the bucket restarts empty afterwards. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
    this.tokens = 0;
    this.refilledAt = this.pausedUntil;
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
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.queue.splice(0)) w.reject(new PacerClosedError());
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
      this.queue.shift()?.resolve();
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
