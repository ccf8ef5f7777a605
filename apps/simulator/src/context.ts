import type { FaultStore } from './faults.js';

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
  /** Token bucket for VRChat API calls: capacity and refill per second. */
  vrchatRate?: { capacity: number; perSecond: number };
  /** Discord per-route bucket: requests per window, window in seconds. */
  discordRate?: { limit: number; windowSeconds: number };
  /** Heartbeat interval the gateway announces, ms. */
  gatewayHeartbeatMs?: number;
}
