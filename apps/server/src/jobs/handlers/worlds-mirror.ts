import { worldsMirrorJob } from '../../kernel/job-catalog.js';
import { runWorldMirror } from '../../wings/worlds/world-mirror/world-mirror.service.js';
import { handleJob } from '../define.js';

/**
 * Publishes the data of worlds with Github Updates Enabled to the GitHub Pages mirror (the 'Trusted URL'):
 * every 10 minutes, one commit when anything changed. A failed push is recorded for /admin and retried
 * with backoff; the next timer run starts again from the remote anyway.
 */
export const worldsMirrorHandler = handleJob(worldsMirrorJob, async (ctx) => {
  await runWorldMirror(ctx);
});
