/**
 * The admin wing's face. No other wing imports admin; the composition root (app.ts, jobs/registry.ts) binds its
 * routes and jobs, and hands identity's privacy export the API calls section.
 */
export { apiCallsOf } from './api-v1/api-log.service.js';
