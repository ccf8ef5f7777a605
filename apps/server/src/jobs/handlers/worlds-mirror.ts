import { z } from 'zod';
import { runWorldMirror } from '../../modules/world-mirror/world-mirror.service.js';
import { defineJob } from '../define.js';

/**
 * Publishes the data of worlds with Github Updates Enabled to the GitHub Pages mirror (the 'Trusted URL'):
 * every 10 minutes, one commit when anything changed. A failed push is recorded for /admin and retried
 * with backoff; the next timer run starts again from the remote anyway.
 */
export const worldsMirrorJob = defineJob({
  name: 'worlds.mirror',
  payload: z.object({}),
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
  schedule: { timerSeconds: 10 * 60, method: 'mirrorWorlds' },
  async run(ctx) {
    await runWorldMirror(ctx);
  },
});
