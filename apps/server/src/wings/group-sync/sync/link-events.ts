import { and, asc, inArray, isNull } from 'drizzle-orm';
import { guildMembers, linkEvents } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import { requestGuildSync } from '../../../kernel/sync-trigger.js';
import { requestRoleConnectionUpdates } from '../../identity/index.js';

const BATCH = 500;

/**
 * Reads link events nobody handled yet, asks for a sync of every server their member is in (and an update of
 * their role connection), then marks them handled. A crash before the mark repeats the requests, which collapse into the same sync.
 */
export async function dispatchLinkEvents(ctx: AppContext): Promise<number> {
  let handled = 0;
  for (;;) {
    const events = await ctx.db
      .select({ id: linkEvents.id, discordUserId: linkEvents.discordUserId })
      .from(linkEvents)
      .where(isNull(linkEvents.processedAt))
      .orderBy(asc(linkEvents.id))
      .limit(BATCH);
    if (events.length === 0) return handled;
    const userIds = [...new Set(events.map((e) => e.discordUserId))];
    const memberships = await ctx.db
      .selectDistinct({ guildId: guildMembers.guildId })
      .from(guildMembers)
      .where(and(inArray(guildMembers.userId, userIds), isNull(guildMembers.leftAt)));
    for (const { guildId } of memberships) await requestGuildSync(ctx, guildId, 'link');
    // Discord's Linked Roles read the role connection: it follows every link change too.
    await requestRoleConnectionUpdates(ctx, userIds);
    await ctx.db
      .update(linkEvents)
      .set({ processedAt: new Date() })
      .where(
        inArray(
          linkEvents.id,
          events.map((e) => e.id),
        ),
      );
    handled += events.length;
    if (events.length < BATCH) return handled;
  }
}
