/**
 * The admin wing's face. No other wing imports admin today; the
 * composition root (app.ts, jobs/registry.ts) binds its routes and jobs.
 */
export {};
