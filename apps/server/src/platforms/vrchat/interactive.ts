import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether the current VRChat call serves someone waiting for an answer (an HTTP request). Each such call
 * gives up at a deadline while VRChat rate limits us; everything else (jobs, the sync, the bot) runs
 * outside this context and waits for the limit to lift.
 */
const interactive = new AsyncLocalStorage<true>();

/** Runs `fn` (and everything it starts) as an interactive caller. */
export function runInteractive<T>(fn: () => T): T {
  return interactive.run(true, fn);
}

/** Runs `fn` as a patient caller, even when started from a request (work that outlives the answer). */
export function runPatient<T>(fn: () => T): T {
  return interactive.exit(fn);
}

/** Whether the current caller is interactive (see runInteractive). */
export function isInteractive(): boolean {
  return interactive.getStore() === true;
}
