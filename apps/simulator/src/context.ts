import type { GatewayLimits } from './discord/state.js';
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
   * One limit for every Discord per-route bucket (requests per window, window in seconds), for tests about
   * something else that must not wait on Discord's strict per-route buckets (route-buckets.ts) they get without it.
   */
  discordRate?: { limit: number; windowSeconds: number };
  /**
   * Makes every platform window and reset N times shorter (default 1: the platforms' own pace), so a test
   * or bench can run a long job against the strict limits quickly. Discord: per-route buckets, the global
   * limit, the invalid-request window and ban, op 8's interval, the identify window. VRChat: every refill, block and Retry-After.
   */
  timeScale?: number;
  /**
   * The Discord application's registered OAuth2 redirect URIs at start (default none: register them with
   * `POST /control/discord/application/redirect-uris`, as demo mode does with the address it prints); null
   * accepts any http(s) URI.
   */
  redirectUris?: string[] | null;
  /**
   * The Discord gateway's sharding and identify limits over Discord's own (2,500 guilds per shard, one shard
   * recommended per 1,000, max_concurrency 1, one IDENTIFY per bucket per 5 s, 1,000 session starts a day).
   * Also `PATCH /control/discord/config`; a reset keeps these. A test that IDENTIFYs many times in a row about
   * something else sets `identifyWindowMs: 0`.
   */
  discordGateway?: Partial<GatewayLimits>;
  /** Heartbeat interval the gateway announces, ms. */
  gatewayHeartbeatMs?: number;
}
