import type { FaultStore } from './faults.js';
import type { VrchatRateConfig } from './vrchat/ratelimit.js';

/** Shared by both platform simulators: where the simulator is reachable and the injected faults. */
export interface SimContext {
  /** e.g. http://127.0.0.1:4010 — known once the server listens. */
  readonly baseUrl: () => string;
  readonly faults: FaultStore;
  readonly options: SimulatorOptions;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /**
   * VRChat's per-account rate limit over the strict defaults (capacity 5, 1/s, 60 s blocks doubling per
   * call while blocked up to 6 h, Retry-After on every other 429). Also `PATCH /control/vrchat/config`.
   */
  vrchatRate?: Partial<VrchatRateConfig>;
  /**
   * Runs the platforms' clocks N times faster (default 1): every rate-limit window, refill, block and
   * Retry-After is N times shorter, so tests can meet the strict limits' shape without waiting for it.
   */
  timeScale?: number;
  /** Discord per-route bucket: requests per window, window in seconds. */
  discordRate?: { limit: number; windowSeconds: number };
  /** Heartbeat interval the gateway announces, ms. */
  gatewayHeartbeatMs?: number;
}
