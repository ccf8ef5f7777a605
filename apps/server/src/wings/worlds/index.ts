/**
 * The worlds wing's face. No other wing imports worlds today; the
 * composition root (app.ts, jobs/registry.ts) binds its routes and jobs.
 */
export {};
