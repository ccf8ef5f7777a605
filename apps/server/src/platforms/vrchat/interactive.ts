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

/**
 * The signal of the job the current VRChat calls serve (see jobs/job-loop.ts): a call still waiting in the
 * pacer's queue when the job's time is up is refused instead of sent.
 */
const stopping = new AsyncLocalStorage<AbortSignal>();

/** Runs `fn` (and everything it starts) on behalf of a job that `signal` stops. */
export function runStoppable<T>(signal: AbortSignal, fn: () => T): T {
  return stopping.run(signal, fn);
}

/** The current job's stop signal, if any. */
export function stopSignal(): AbortSignal | undefined {
  return stopping.getStore();
}
