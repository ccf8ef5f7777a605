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
    // A takeover first: the sync it leads to then starts from what is undone.
    for (const e of events)
      if (e.kind === 'moved_away' && e.vrcUserId)
        await undoAfterTakeover(ctx, { discordUserId: e.discordUserId, vrcUserId: e.vrcUserId });
    const userIds = [...new Set(events.map((e) => e.discordUserId))];
    for (const guildId of await currentGuildIdsOf(ctx.db, userIds))
      await requestGuildSync(ctx, guildId, 'link');
    // Discord's Linked Roles read the role connection: it follows every link change too.
    await requestRoleConnectionUpdates(ctx, userIds);
    await markLinkEventsHandled(
      ctx.db,
      events.map((e) => e.id),
    );
    handled += events.length;
    if (events.length < BATCH) return handled;
  }
}
