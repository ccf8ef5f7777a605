import type { FastifyBaseLogger } from 'fastify';

export type VrchatStatus =
  | 'ok'
  | 'needs_2fa'
  | 'rate_limited'
  | 'unreachable'
  | 'logged_out'
  | 'login_failed';

/** What the operator page shows about the product's VRChat account. */
export interface VrchatState {
  status: VrchatStatus;
  /** While rate limited: when our pause ends (ISO). */
  rateLimitedUntil?: string;
  /** The last thing that went wrong, in VRChat's words where it gave any. */
  lastError?: string;
  /** When the status last changed (ISO). */
  since: string;
  /** When VRChat last answered 429, even if we have recovered since (ISO). */
  lastRateLimitedAt?: string;
}

/** Keeps the current status and logs each change once (not every failing request). */
export class StatusTracker {
  private current: VrchatState;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {
    this.current = { status: 'logged_out', since: this.iso() };
  }

  get(): VrchatState {
    return { ...this.current };
  }

  set(status: VrchatStatus, details: { lastError?: string; rateLimitedUntil?: number } = {}): void {
    const prev = this.current;
    const changed = prev.status !== status;
    this.current = {
      status,
      since: changed ? this.iso() : prev.since,
      lastError: details.lastError ?? prev.lastError,
      rateLimitedUntil:
        details.rateLimitedUntil !== undefined ? this.iso(details.rateLimitedUntil) : undefined,
      lastRateLimitedAt: status === 'rate_limited' ? this.iso() : prev.lastRateLimitedAt,
    };
    if (!changed) return;
    const fields = {
      from: prev.status,
      to: status,
      lastError: this.current.lastError,
      rateLimitedUntil: this.current.rateLimitedUntil,
    };
    if (status === 'ok') this.log.info(fields, 'VRChat: connection ok');
    else this.log.warn(fields, `VRChat: ${status.replace('_', ' ')}`);
  }

  private iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }
}
