import { worldsAtlasJob } from '../../kernel/job-catalog.js';
import { generateQueuedAtlas } from '../../wings/worlds/world-atlas/generate-atlas.js';
import { handleJob } from '../define.js';

/**
 * One world's atlas generation ('Generate' in the World Atlas dialog): runs the world's queued request. Not
 * retried: a failure is shown to the manager, who can generate again; a run whose process died expires before
 * its request goes stale, so it never overlaps the run that replaces it.
 */
export const worldsAtlasHandler = handleJob(worldsAtlasJob, async (ctx, { worldId }) => {
  await generateQueuedAtlas(ctx, worldId);
});
