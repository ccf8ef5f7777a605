/**
 * The worlds wing's face: what other wings use of it (the audit log names worlds and images; the privacy export lists a user's images). The
 * composition root (app.ts, jobs/registry.ts) binds its routes and jobs.
 */
export { imageDataOf, imageNamesOf, worldNamesOf } from './world-names.js';
