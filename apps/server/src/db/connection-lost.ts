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
