/**
 * VRChat's API rate limit as users report it (VRChat publishes none): a per-account budget near one
 * request a second with a small burst; once it is spent the account is blocked for a while, and every
 * call made while blocked doubles the block and starts it again (accounts that kept calling were locked
 * out for 6–24 hours). Some 429s carry `Retry-After`, most clients see none: the simulator sends it on
 * every other 429 so a client must cope with both. Where reports disagree, the stricter reading is taken.
 */
export interface VrchatRateConfig {
  /** Requests that may go at once after a quiet spell (the burst). */
  capacity: number;
  /** Sustained refill, requests per second. */
  perSecond: number;
  /** The block that starts when the budget is spent, seconds. */
  blockSeconds: number;
  /** Each call made while blocked doubles the block (from that call), up to this many seconds. */
  maxBlockSeconds: number;
  /** Which 429s carry a `Retry-After` header: every one, none, or every other one. */
  retryAfter: 'always' | 'never' | 'alternate';
}

export const DEFAULT_VRCHAT_RATE: VrchatRateConfig = {
  capacity: 5,
  perSecond: 1,
  blockSeconds: 60,
  maxBlockSeconds: 6 * 3600,
  retryAfter: 'alternate',
};

/**
 * For tests about something other than rate limits: a budget no test spends, with the strict shape kept
 * (blocks and Retry-After) should one ever run dry.
 */
export const LAX_VRCHAT_RATE: Pick<VrchatRateConfig, 'capacity' | 'perSecond'> = {
  capacity: 100_000,
  perSecond: 100_000,
};

export const DEFAULT_SESSION_LIMIT = { max: 10, windowSeconds: 3600 };

/** The answer to one request: go, or a 429 with the seconds to send as Retry-After (undefined: none). */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds?: number };

interface Account {
  tokens: number;
  at: number;
  blockedUntil: number;
  blockMs: number;
}

export class VrchatRateLimiter {
  private accounts = new Map<string, Account>();
  private limited = 0;

  /**
   * @param rate the current limits (read on every call: the control API may change them)
   * @param timeScale every window, refill, block and Retry-After is this many times shorter
   */
  constructor(
    private readonly rate: () => VrchatRateConfig,
    private readonly timeScale = 1,
  ) {}

  take(key: string, now = Date.now()): RateDecision {
    const r = this.rate();
    const perMs = (r.perSecond * this.timeScale) / 1000;
    const a = this.accounts.get(key) ?? { tokens: r.capacity, at: now, blockedUntil: 0, blockMs: 0 };
    this.accounts.set(key, a);
    if (now < a.blockedUntil) {
      // Calling while blocked: the block doubles and starts again from now.
      a.blockMs = Math.min((r.maxBlockSeconds * 1000) / this.timeScale, a.blockMs * 2);
      a.blockedUntil = now + a.blockMs;
      return this.refuse(a, now);
    }
    a.tokens = Math.min(r.capacity, a.tokens + (now - Math.max(a.at, a.blockedUntil)) * perMs);
    a.at = now;
    if (a.tokens >= 1) {
      a.tokens -= 1;
      return { ok: true };
    }
    a.blockMs = (r.blockSeconds * 1000) / this.timeScale;
    a.blockedUntil = now + a.blockMs;
    // The block is the penalty: once it ends, one call may go at once and the bucket refills from there.
    a.tokens = 1;
    return this.refuse(a, now);
  }

  /** When `key` may call again (epoch ms; 0 when not blocked), for tests and the control API. */
  blockedUntil(key: string): number {
    return this.accounts.get(key)?.blockedUntil ?? 0;
  }

  reset(): void {
    this.accounts.clear();
    this.limited = 0;
  }

  private refuse(a: Account, now: number): RateDecision {
    this.limited += 1;
    const mode = this.rate().retryAfter;
    const send = mode === 'always' || (mode === 'alternate' && this.limited % 2 === 1);
    if (!send) return { ok: false };
    // Whole seconds as HTTP asks; a time-scaled simulator sends fractions (its blocks are shorter than 1 s).
    const seconds = (a.blockedUntil - now) / 1000;
    return {
      ok: false,
      retryAfterSeconds:
        this.timeScale === 1 ? Math.max(1, Math.ceil(seconds)) : Math.round(seconds * 1000) / 1000,
    };
  }
}
