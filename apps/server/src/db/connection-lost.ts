import { DrizzleQueryError } from 'drizzle-orm/errors';

/**
 * PostgreSQL ended the session: admin_shutdown, crash_shutdown, cannot_connect_now (a restart, a failover,
 * `pg_terminate_backend`).
 */
const TERMINATION_CODES = new Set(['57P01', '57P02', '57P03']);

/** What node-postgres says about a connection that closed under a query, or about a client it already lost. */
const LOST_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * Whether a failure is a lost database connection (the query may succeed on a new one), looking through
 * the causes Drizzle wraps driver errors in.
 */
export function isConnectionLost(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TERMINATION_CODES.has(code)) return true;
    if (LOST_MESSAGES.some((m) => e instanceof Error && e.message.startsWith(m))) return true;
  }
  return false;
}

/** Set on an error the pool gave while opening a connection (client.ts): the database did not take it. */
const CONNECT_FAILED = Symbol.for('vrclink.databaseConnectFailed');

/** Marks a failure to open a database connection (refused, starting up, timed out); answers the error. */
export function markConnectFailed<E>(err: E): E {
  if (err !== null && typeof err === 'object') (err as Record<symbol, unknown>)[CONNECT_FAILED] = true;
  return err;
}

/** What PostgreSQL says when it does not take connections: starting up, shutting down, in recovery. */
const REFUSING_MESSAGES = [
  /^the database system is (starting up|shutting down|in recovery mode|not (yet )?accepting connections)/,
  /is not currently accepting connections/,
  /^timeout exceeded when trying to connect/,
];

/**
 * Whether the database refuses connections (stopped, restarting, `ALLOW_CONNECTIONS false`, a failover):
 * a connection the pool could not open, or PostgreSQL's own refusals (57P03 and its messages), looking
 * through the causes Drizzle wraps driver errors in. A refused socket (ECONNREFUSED) counts only when the
 * pool marked it: a platform call refused the same way is not the database.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as unknown as Record<symbol, unknown>)[CONNECT_FAILED]) return true;
    if ((e as { code?: unknown }).code === '57P03') return true;
    const message = e.message;
    if (REFUSING_MESSAGES.some((m) => m.test(message))) return true;
  }
  return false;
}

/** A SQLSTATE: five digits or capital letters (node-postgres' and PGlite's `DatabaseError.code`). */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * Whether a failure came from the database (a refused or lost connection, or any error PostgreSQL
 * answered): such failures keep their own answer and are never reported as a platform's.
 */
export function isDatabaseFailure(err: unknown): boolean {
  if (isDatabaseUnavailable(err) || isConnectionLost(err)) return true;
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DrizzleQueryError) return true;
    const { code, severity } = e as { code?: unknown; severity?: unknown };
    if (typeof severity === 'string' && typeof code === 'string' && SQLSTATE.test(code)) return true;
  }
  return false;
}
