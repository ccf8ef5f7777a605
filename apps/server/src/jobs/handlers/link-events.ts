import { linkEventsJob } from '../../kernel/job-catalog.js';
import { dispatchLinkEvents } from '../../wings/group-sync/sync/link-events.js';
import { handleJob } from '../define.js';

/**
 * Turns link changes (link, verify, refresh, unlink, moves, invite resets) into syncs of the servers the
 * member is in. Sent right after each change; the timer catches whatever a crash left unsent.
 */
export const linkEventsHandler = handleJob(linkEventsJob, async (ctx) => {
  await dispatchLinkEvents(ctx);
});
