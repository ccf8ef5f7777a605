import type { SharedBudget } from '../../db/budget.js';

/**
 * One queue for every VRChat request: a token bucket (steady rate with a small burst), a global pause that
 * a 429 sets, and priorities. VRChat publishes no limits, and calls made while it blocks us extend the
 * block, so once told off we stop everything: no request goes while a pause lasts, and when it ends one
 * request goes alone (a probe) until its answer says whether the block has lifted. Interactive callers go
 * before background work, but a background request that has waited `agingMs` longer goes first, so a busy
 * page never starves the sync. Timers run only while someone waits, never on a fixed clock.
 */
export interface PacerOptions {
  /** Sustained requests per second (default 1). */
  ratePerSecond?: number;
  /** Requests that may go at once after a quiet spell (default 3). */
  burst?: number;
  /**
   * How much sooner an interactive request counts as queued than it was (default 30 s): it overtakes
   * background requests that came less than this before it, and no more.
   */
  agingMs?: number;
  /**
   * The account's budget shared by every process (db/budget.ts): when given, a request goes only
   * with a token taken from it (one round trip per request; this process's queue still decides who goes),
   * and a pause is shared with every process. Without it, the bucket is this process's own.
   */
  budget?: SharedBudget;
  /** How long a take from the shared budget may take before the queued requests fail (default 5 s). */
  budgetTimeoutMs?: number;
  now?: () => number;
}

/** Options of one acquire. */
export interface AcquireOptions {
  /** Epoch ms after which the caller would rather fail than keep waiting (interactive requests). */
  deadlineAt?: number;
  /** Someone waits for the answer (default: when there is a deadline); goes before background work. */
  interactive?: boolean;
  /** The caller no longer needs the request (a job whose time is up): it leaves the queue, refused. */
  signal?: AbortSignal;
  /**
   * Whose share of the budget the request is (a member, a server's sync): requests of a share that was just
   * served wait behind other shares' requests that came up to one request's time later, so one caller with
   * many requests queued cannot hold everybody else's (see `next`).
   */
  share?: string;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
  deadlineAt?: number;
  /** Queue order: when it came, less agingMs for interactive callers. */
  rank: number;
  share?: string;
  timer?: NodeJS.Timeout;
}

export class PacerClosedError extends Error {
  constructor() {
    super('The VRChat client is closed.');
  }
}

/** The caller's signal aborted while it waited in the queue (its job's time is up). */
export class PacerAbortedError extends Error {
  constructor() {
    super('The request was not sent: the job asking for it was stopped.');
  }
}

/** The shared budget could not be read (the database is away): the request is not sent, never held. */
export class PacerUnavailableError extends Error {
  constructor() {
    super(
      'VRChat requests are on hold: their shared budget is not available right now. Try again in a few seconds.',
    );
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
  private readonly agingMs: number;
  private readonly now: () => number;
  private tokens: number;
  private refilledAt: number;
  private pausedUntil = 0;
  private pausedAt = Number.NEGATIVE_INFINITY;
  /** After a pause: a probe went and its answer is awaited (nothing else goes meanwhile). */
  private probeOut = false;
  /** After a pause, until an answer shows the block lifted: requests go one at a time. */
  private probing = false;
  private readonly queue: Waiter[] = [];
  /** Per share: the rank (virtual time) its next request starts from, one request's time per request served. */
  private readonly served = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly budget?: SharedBudget;
  private readonly budgetTimeoutMs: number;
  /** A take from the shared budget is on its way (one at a time per process). */
  private taking = false;

  constructor(opts: PacerOptions = {}) {
    this.budget = opts.budget;
    this.budgetTimeoutMs = opts.budgetTimeoutMs ?? 5000;
    this.rate = opts.ratePerSecond ?? 1;
    this.burst = Math.max(1, opts.burst ?? 3);
    this.agingMs = opts.agingMs ?? 30_000;
    this.now = opts.now ?? Date.now;
    this.tokens = this.burst;
    this.refilledAt = this.now();
  }

  /**
   * Resolves when the caller may send one request. A caller with a deadline is refused at once when a
   * known pause outlasts it (PacerDeadlineError says when to retry), and when its deadline passes in the
   * queue. No caller probes during a pause.
   */
  acquire(opts: AcquireOptions = {}): Promise<void> {
    if (this.closed) return Promise.reject(new PacerClosedError());
    const { deadlineAt } = opts;
    const now = this.now();
    if (deadlineAt !== undefined && this.pausedUntil > Math.max(now, deadlineAt))
      return Promise.reject(new PacerDeadlineError(this.pausedUntil));
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(new PacerAbortedError());
    const interactive = opts.interactive ?? deadlineAt !== undefined;
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i < 0) return;
        this.queue.splice(i, 1);
        clearTimeout(waiter.timer);
        reject(new PacerAbortedError());
      };
      const settle =
        <A extends unknown[]>(fn: (...a: A) => void) =>
        (...a: A) => {
          signal?.removeEventListener('abort', onAbort);
          fn(...a);
        };
      const waiter: Waiter = {
        resolve: settle(resolve),
        reject: settle(reject),
        deadlineAt,
        rank: now - (interactive ? this.agingMs : 0),
        share: opts.share,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (deadlineAt !== undefined)
        waiter.timer = setTimeout(
          () => {
            const i = this.queue.indexOf(waiter);
            if (i < 0) return;
            this.queue.splice(i, 1);
            waiter.reject(new PacerDeadlineError(Math.max(this.pausedUntil, this.now() + 1000 / this.rate)));
          },
          Math.max(0, deadlineAt - now),
        );
      this.queue.push(waiter);
      this.drain();
    });
  }

  /**
   * Holds every queued and future request until `ms` from now; afterwards one request goes alone as a
   * probe. Queued callers whose deadline ends before the pause are refused now, not at their deadline.
   */
  pause(ms: number): void {
    // Every process sharing the budget holds too (their next take sees the pause).
    this.budget?.pause(ms).catch(() => {});
    this.hold(ms);
  }

  /** The local half of a pause: this process's queue waits (and probes afterwards). */
  private hold(ms: number): void {
    const now = this.now();
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
    this.pausedAt = now;
    this.tokens = 0;
    this.refilledAt = this.pausedUntil;
    this.probing = true;
    this.probeOut = false;
    for (const w of [...this.queue]) {
      if (w.deadlineAt === undefined || w.deadlineAt >= this.pausedUntil) continue;
      this.queue.splice(this.queue.indexOf(w), 1);
      clearTimeout(w.timer);
      w.reject(new PacerDeadlineError(this.pausedUntil));
    }
    this.reschedule();
  }

  /**
   * VRChat answered a request sent at `sentAt` with something other than a 429 (or it failed on the way).
   * If it was the probe after a pause, the block has lifted: requests go at the steady rate again.
   */
  recovered(sentAt: number): void {
    if (!this.probing || sentAt < this.pausedAt) return;
    this.probing = false;
    this.probeOut = false;
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
    for (const w of this.queue.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new PacerClosedError());
    }
  }

  private refill(now: number): void {
    if (now <= this.refilledAt) return;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.rate);
    this.refilledAt = now;
  }

  /**
   * Takes the waiter to go next out of the queue: the lowest rank (interactive ones count as having come
   * agingMs sooner), where a waiter of a share counts from no sooner than its share's virtual time (fair
   * queuing: each request served moves its share's time on by one request's time at the steady rate).
   */
  private next(): Waiter | undefined {
    let best: Waiter | undefined;
    let bestRank = Number.POSITIVE_INFINITY;
    for (const w of this.queue) {
      const rank = Math.max(w.rank, (w.share && this.served.get(w.share)) || Number.NEGATIVE_INFINITY);
      if (rank < bestRank) [best, bestRank] = [w, rank];
    }
    if (!best) return undefined;
    this.queue.splice(this.queue.indexOf(best), 1);
    clearTimeout(best.timer);
    if (best.share) {
      this.served.set(best.share, bestRank + 1000 / this.rate);
      // A share whose time is long past orders nothing any more (every new waiter ranks after it).
      if (this.served.size > 256) {
        const past = this.now() - 2 * this.agingMs;
        for (const [share, at] of this.served) if (at < past) this.served.delete(share);
      }
    }
    return best;
  }

  private drain(): void {
    if (this.timer) return;
    if (this.budget) {
      this.drainShared(this.budget);
      return;
    }
    while (this.queue.length) {
      const now = this.now();
      if (now < this.pausedUntil) {
        this.wake(this.pausedUntil - now);
        return;
      }
      // The probe's answer decides; recovered() or the next pause() drains again.
      if (this.probeOut) return;
      this.refill(now);
      if (this.tokens < 1 && !this.probing) {
        this.wake(Math.ceil(((1 - this.tokens) / this.rate) * 1000));
        return;
      }
      // A probe goes as soon as the pause ends: the block is over by then, or VRChat said how long it is.
      this.tokens = Math.max(0, this.tokens - 1);
      if (this.probing) this.probeOut = true;
      const w = this.next();
      if (!w) return;
      w.resolve();
    }
  }

  /**
   * With a shared budget: one take at a time; a granted token goes to whoever is first in this process's
   * queue when it arrives, a refusal waits as long as the budget says, and a pause another process met
   * holds this queue too. A take that fails or hangs (the database is away) fails the queued requests.
   */
  private drainShared(budget: SharedBudget): void {
    if (this.taking || !this.queue.length || this.closed) return;
    const now = this.now();
    if (now < this.pausedUntil) {
      this.wake(this.pausedUntil - now);
      return;
    }
    if (this.probeOut) return;
    this.taking = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PacerUnavailableError()), this.budgetTimeoutMs);
    });
    const done = () => {
      clearTimeout(timer);
      this.taking = false;
    };
    Promise.race([budget.take(), timeout]).then(
      (take) => {
        done();
        if (this.closed) return;
        if (!take.granted) {
          if (take.pausedMs > 0) this.hold(take.pausedMs);
          else if (!this.timer) this.wake(take.waitMs);
          return;
        }
        const w = this.next();
        // Nobody left (they gave up meanwhile): the token is spent unused, which only errs on the safe side.
        if (w) {
          if (this.probing) this.probeOut = true;
          w.resolve();
        }
        this.drain();
      },
      () => {
        done();
        for (const w of this.queue.splice(0)) {
          clearTimeout(w.timer);
          w.reject(new PacerUnavailableError());
        }
      },
    );
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

/**
 * The pause after the `attempt`-th 429 in a row (0-based) when VRChat did not say how long: never shorter
 * than `baseMs` (a shorter guess would probe inside the block and extend it), tripled per 429 in a row so
 * it outgrows a block that doubles with each probe, plus up to 10% at random so processes do not line up.
 */
export function rateLimitPause(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  return Math.round(Math.min(maxMs, baseMs * 3 ** attempt) * (1 + random() * 0.1));
}

/**
 * Reads a 429's Retry-After: seconds (fractions allowed) or an HTTP date; undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
