import { z } from 'zod';
import {
  ATLAS_REFRESH_JOB,
  ATLAS_REFRESH_SECONDS,
  regenerateOutOfDateAtlases,
} from '../../modules/world-atlas/atlas-refresh.js';
import { defineJob } from '../define.js';

/** Regenerates atlases whose slots changed since they were made (see atlas-refresh.ts), debounced. */
export const worldsAtlasRefreshJob = defineJob({
  name: ATLAS_REFRESH_JOB,
  payload: z.object({}),
  // The next run comes on the timer.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 5 * 60,
  schedule: { timerSeconds: ATLAS_REFRESH_SECONDS, method: 'regenerateOutOfDateAtlases' },
  async run(ctx) {
    await regenerateOutOfDateAtlases(ctx);
  },
});
