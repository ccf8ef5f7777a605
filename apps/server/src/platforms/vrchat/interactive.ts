import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

/**
 * Whether the current VRChat call serves someone waiting for an answer (an HTTP request). Each such call
 * gives up at a deadline while VRChat rate limits us; everything else (jobs, the sync, the bot) runs
 * outside this context and waits for the limit to lift.
 */
const interactive = new AsyncLocalStorage<{ share?: string }>();

/**
 * Runs `fn` (and everything it starts) as an interactive caller; `share` names whose share of the VRChat
 * budget its calls are (a member, an API key, an address: see Pacer's fair queuing).
 */
export function runInteractive<T>(fn: () => T, share?: string): T {
  return interactive.run({ share }, fn);
}

/**
 * The share of an HTTP caller: its session or API key (hashed: the queue keeps no secret), else its address.
 */
export function vrchatShareOf(req: {
  ip: string;
  cookies?: Record<string, string | undefined>;
  headers: Record<string, string | string[] | undefined>;
}): string {
  const credential = req.cookies?.vrclink_session ?? req.headers.authorization;
  if (typeof credential !== 'string' || !credential) return `ip:${req.ip}`;
  return `caller:${createHash('sha256').update(credential).digest('base64url').slice(0, 16)}`;
}

/** Runs `fn` as a patient caller, even when started from a request (work that outlives the answer). */
export function runPatient<T>(fn: () => T): T {
  return interactive.exit(fn);
}

/** Whether the current caller is interactive (see runInteractive). */
export function isInteractive(): boolean {
  return interactive.getStore() !== undefined;
}

/**
 * The signal of the job the current VRChat calls serve (see jobs/job-loop.ts): a call still waiting in the
 * pacer's queue when the job's time is up is refused instead of sent.
 */
const stopping = new AsyncLocalStorage<{ signal: AbortSignal; share?: string }>();

/**
 * Runs `fn` (and everything it starts) on behalf of a job that `signal` stops; `share` names whose share of
 * the VRChat budget its calls are (a server's sync: background work is shared per server).
 */
export function runStoppable<T>(signal: AbortSignal, fn: () => T, share?: string): T {
  return stopping.run({ signal, share }, fn);
}

/** The current job's stop signal, if any. */
export function stopSignal(): AbortSignal | undefined {
  return stopping.getStore()?.signal;
}

/** Whose share of the VRChat budget the current call is: the interactive caller's, else the job's. */
export function currentShare(): string | undefined {
  return interactive.getStore()?.share ?? stopping.getStore()?.share;
}
