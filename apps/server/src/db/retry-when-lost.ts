import { setTimeout as sleep } from 'node:timers/promises';
import { isConnectionLost, isDatabaseUnavailable } from './connection-lost.js';

/**
 * How long a write waits before each new try: about two minutes in all, which outlasts a terminated
 * connection (the next try gets a new one) and a database restart.
 */
export const RETRY_DELAYS_MS = [
  250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000, 15_000, 15_000, 15_000,
];

/**
 * Runs a write again while it fails because the database connection was lost or refused, so what arrives
 * only once (a gateway event) is not dropped by an outage of a few seconds. Any other error, or the last
 * try's, is the caller's. The write must be safe to run again.
 */
export async function retryWhenDatabaseLost<T>(
  write: () => Promise<T>,
  delaysMs: readonly number[] = RETRY_DELAYS_MS,
  wait: (ms: number) => Promise<unknown> = (ms) => sleep(ms, undefined, { ref: false }),
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      const delay = delaysMs[attempt];
      if (delay === undefined || !(isConnectionLost(err) || isDatabaseUnavailable(err))) throw err;
      await wait(delay);
    }
  }
}
