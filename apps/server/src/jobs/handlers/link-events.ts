import { z } from 'zod';
import { dispatchLinkEvents } from '../../modules/sync/link-events.js';
import { defineJob } from '../define.js';

/**
 * Turns link changes (link, verify, refresh, unlink, moves, invite resets) into syncs of the servers the
 * member is in. Sent right after each change; the timer catches whatever a crash left unsent.
 */
export const linkEventsJob = defineJob({
  name: 'links.events',
  payload: z.object({}),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 5 * 60,
  schedule: { timerSeconds: 60, method: 'dispatchLinkEvents' },
  async run(ctx) {
    await dispatchLinkEvents(ctx);
  },
});
