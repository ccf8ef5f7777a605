import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether the current VRChat call serves someone waiting for an answer (an HTTP request) and since when.
 * Interactive calls give up at a deadline while VRChat rate limits us; everything else (jobs, the sync,
 * the bot) runs outside this context and waits for the limit to lift.
 */
const interactive = new AsyncLocalStorage<{ startedAt: number }>();

/** Runs `fn` (and everything it starts) as an interactive caller that began at `startedAt`. */
export function runInteractive<T>(fn: () => T, startedAt = Date.now()): T {
  return interactive.run({ startedAt }, fn);
}

/** Runs `fn` as a patient caller, even when started from a request (work that outlives the answer). */
export function runPatient<T>(fn: () => T): T {
  return interactive.exit(fn);
}

/** When the current interactive caller began, or undefined for a patient one. */
export function interactiveSince(): number | undefined {
  return interactive.getStore()?.startedAt;
}
