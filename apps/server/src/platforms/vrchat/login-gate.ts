/**
 * Lets at most one login attempt through per cooldown window. Every Basic login creates a VRChat session
 * and the number of sessions is limited, so a wrong password or a 'Created too many sessions' 429 must
 * never turn into a retry loop. The cooldown doubles with each failure in a row (up to `maxCooldownMs`).
 */
export interface LoginGateOptions {
  /** Minimum time between two login attempts (default 60 s). */
  cooldownMs?: number;
  /** Cap for the doubled cooldown after repeated failures (default 1 h). */
  maxCooldownMs?: number;
  now?: () => number;
}

/** A failed login's pause, as shared with other processes (see SessionStore.loadLoginPause). */
export interface LoginPause {
  /** ms epoch before which no login may be attempted. */
  until: number;
  failures: number;
  lastError: string;
}

export class LoginGate {
  private readonly cooldownMs: number;
  private readonly maxCooldownMs: number;
  /** The gate's clock (tests inject one: a cooldown is then independent of how busy the machine is). */
  readonly now: () => number;
  private startedAt = Number.NEGATIVE_INFINITY;
  private nextAllowedAt = 0;
  private failures = 0;
  private lastError: string | undefined;
  /** True between a Basic login and its 2FA step, which belongs to the same attempt. */
  open = false;

  constructor(opts: LoginGateOptions = {}) {
    this.cooldownMs = opts.cooldownMs ?? 60_000;
    this.maxCooldownMs = Math.max(this.cooldownMs, opts.maxCooldownMs ?? 3_600_000);
    this.now = opts.now ?? Date.now;
  }

  /** Starts an attempt, or answers why not (the attempt must then not be made). */
  begin(): { refused: string } | undefined {
    const now = this.now();
    if (now < this.nextAllowedAt) {
      const until = new Date(this.nextAllowedAt).toISOString();
      const why = this.lastError
        ? `the last attempt failed: ${this.lastError}`
        : 'a login was attempted moments ago';
      return { refused: `VRChat login is paused until ${until}; ${why}` };
    }
    this.startedAt = now;
    this.nextAllowedAt = now + this.cooldownMs;
    this.open = true;
    return undefined;
  }

  succeed(): void {
    this.failures = 0;
    this.lastError = undefined;
    this.open = false;
  }

  fail(message: string): void {
    this.failures += 1;
    this.lastError = message;
    this.open = false;
    const cooldown = Math.min(this.maxCooldownMs, this.cooldownMs * 2 ** (this.failures - 1));
    this.nextAllowedAt = Math.max(this.nextAllowedAt, this.startedAt + cooldown);
  }

  /** When the next attempt may start (ms epoch). */
  get nextAttemptAt(): number {
    return this.nextAllowedAt;
  }

  /** How many attempts in a row failed (0 after a success). */
  get failuresInARow(): number {
    return this.failures;
  }

  /** The pause the last failed attempt set, or undefined when the last attempt did not fail. */
  get pause(): LoginPause | undefined {
    return this.failures > 0 && this.lastError !== undefined
      ? { until: this.nextAllowedAt, failures: this.failures, lastError: this.lastError }
      : undefined;
  }

  /** Holds back attempts as another process's failed login asks (its pause and its reason). */
  adopt(pause: LoginPause): void {
    if (pause.until <= this.nextAllowedAt && this.failures >= pause.failures) return;
    this.nextAllowedAt = Math.max(this.nextAllowedAt, pause.until);
    this.failures = Math.max(this.failures, pause.failures);
    this.lastError = pause.lastError;
  }
}
