import { asc, count, lt } from 'drizzle-orm';
import { vrchatLinks } from '../../db/schema/index.js';
import { jobActor } from '../../kernel/actor.js';
import { linksRefreshJob } from '../../kernel/job-catalog.js';
import { VrchatError } from '../../platforms/vrchat/errors.js';
import { refreshLinkInBackground } from '../../wings/identity/links/links.service.js';
import { handleJob } from '../define.js';
import { linkRefreshBatchSize } from './link-refresh-batch.js';

/** An account refreshed (by its owner or by this job) within this time is left alone. */
export const LINK_REFRESH_MIN_AGE_MS = 6 * 60 * 60 * 1000;

/**
 * Re-reads linked VRChat accounts (display name, age status), spread over the day: each run takes the
 * links refreshed longest ago, just enough that every link comes round once in 24 hours. A run whose time is
 * up stops between links.
 */
export const linksRefreshHandler = handleJob(linksRefreshJob, async (ctx, _payload, signal) => {
  const [{ total }] = await ctx.db.select({ total: count() }).from(vrchatLinks);
  const due = await ctx.db
    .select()
    .from(vrchatLinks)
    .where(lt(vrchatLinks.refreshedAt, new Date(Date.now() - LINK_REFRESH_MIN_AGE_MS)))
    .orderBy(asc(vrchatLinks.refreshedAt))
    .limit(linkRefreshBatchSize(total, linksRefreshJob.schedule!.timerSeconds));
  const outcome = { changed: 0, unchanged: 0, gone: 0 };
  const actor = jobActor(linksRefreshJob.name);
  for (const link of due) {
    // Time is up: the links not reached are still the oldest, so the next run takes them first.
    if (signal.aborted) break;
    try {
      outcome[await refreshLinkInBackground(ctx, link, actor)] += 1;
    } catch (err) {
      // Told to stop while the read waited in the pacer: this link stays among the oldest for the next run.
      if (signal.aborted) break;
      // VRChat down or out of breath: stop here; the same links come first next time.
      if (err instanceof VrchatError) throw err;
      ctx.log.warn({ err, discordUserId: link.discordUserId }, `${linksRefreshJob.name}: one link failed`);
    }
  }
  ctx.log.info({ due: due.length, ...outcome }, `${linksRefreshJob.name}: done`);
});
