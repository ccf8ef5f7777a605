import type { AppContext } from '../../../kernel/context.js';
import { requestGuildSync } from '../../../kernel/sync-trigger.js';
import { currentGuildIdsOf } from '../../access/index.js';
import {
  markLinkEventsHandled,
  requestRoleConnectionUpdates,
  unhandledLinkEvents,
} from '../../identity/index.js';
import { undoAfterTakeover } from './takeover.js';

const BATCH = 500;

/**
 * Reads link events nobody handled yet, undoes what a link taken over by its owner's proof had caused
 * (takeover.ts), asks for a sync of every server their member is in (and an update of
 * their role connection), then marks them handled. A crash before the mark repeats the requests, which collapse into the same sync.
 */
export async function dispatchLinkEvents(ctx: AppContext): Promise<number> {
  let handled = 0;
  for (;;) {
    const events = await unhandledLinkEvents(ctx.db, BATCH);
    if (events.length === 0) return handled;
    // A takeover first: the sync it leads to then starts from what is undone. One VRChat could not serve
    // (down, rate limiting) stays unhandled for the next run, without holding up the others' syncs.
    const waiting = new Set<number>();
    for (const e of events) {
      if (e.kind !== 'moved_away' || !e.vrcUserId) continue;
      try {
        await undoAfterTakeover(ctx, { discordUserId: e.discordUserId, vrcUserId: e.vrcUserId });
      } catch (err) {
        waiting.add(e.id);
        ctx.log.warn(
          { err, event: e.id },
          'link events: a takeover could not be undone yet; tried again later',
        );
      }
    }
    const userIds = [...new Set(events.map((e) => e.discordUserId))];
    for (const guildId of await currentGuildIdsOf(ctx.db, userIds))
      await requestGuildSync(ctx, guildId, 'link');
    // Discord's Linked Roles read the role connection: it follows every link change too.
    await requestRoleConnectionUpdates(ctx, userIds);
    const done = events.filter((e) => !waiting.has(e.id));
    await markLinkEventsHandled(
      ctx.db,
      done.map((e) => e.id),
    );
    handled += done.length;
    if (events.length < BATCH || waiting.size > 0) return handled;
  }
}
