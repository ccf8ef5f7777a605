import { z } from 'zod';
import { generateQueuedAtlas } from '../../modules/world-atlas/generate-atlas.js';
import { ATLAS_JOB, ATLAS_STALE_MS } from '../../modules/world-atlas/world-atlas.service.js';
import { defineJob } from '../define.js';

/**
 * One world's atlas generation ('Generate' in the World Atlas dialog): runs the world's queued request. Not
 * retried: a failure is shown to the manager, who can generate again; a run whose process died expires before
 * its request goes stale, so it never overlaps the run that replaces it.
 */
export const worldsAtlasJob = defineJob({
  name: ATLAS_JOB,
  payload: z.object({ worldId: z.uuid() }),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: ATLAS_STALE_MS / 1000 - 60,
  async run(ctx, { worldId }) {
    await generateQueuedAtlas(ctx, worldId);
  },
});
