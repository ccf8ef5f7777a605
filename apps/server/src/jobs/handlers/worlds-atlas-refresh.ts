import { worldsAtlasRefreshJob } from '../../kernel/job-catalog.js';
import { regenerateOutOfDateAtlases } from '../../wings/worlds/world-atlas/atlas-refresh.js';
import { handleJob } from '../define.js';

/** Regenerates atlases whose slots changed since they were made (see atlas-refresh.ts), debounced. */
export const worldsAtlasRefreshHandler = handleJob(worldsAtlasRefreshJob, async (ctx) => {
  await regenerateOutOfDateAtlases(ctx);
});
