import { eq, inArray, ne, or } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groupDiscordMappings, guildGroups, guildSyncState } from '../../db/schema/index.js';
import { requestGuildSync } from './sync-trigger.js';

/**
 * What happens in a group that the sync must answer: someone joined (Auto Remove, mapped roles), left or was
 * removed (a Membership invite again), asked to join (accept), or had roles changed by hand (group-to-Discord).
 * VRChat has no member event stream for admins, so the group's audit log is polled with a cursor.
 */
export const FOLLOWED_GROUP_EVENTS = [
  'group.member.join',
  'group.member.leave',
  'group.member.remove',
  'group.request.create',
  'group.request.accept',
  'group.member.role.assign',
  'group.member.role.unassign',
  'group.user.ban',
  'group.user.unban',
];
const PAGE = 100;

/**
 * For every linked group the sync reads (groups feature on, or a group-to-Discord mapping), reads the audit log
 * entries newer than the server's cursor and asks for a sync when any came from someone other than the bot.
 * The first run only sets the cursor (a full sync runs on its own timer anyway). Answers how many syncs it asked.
 */
export async function followGroupAuditLogs(ctx: AppContext): Promise<number> {
  const mapped = ctx.db
    .select({ guildId: groupDiscordMappings.guildId })
    .from(groupDiscordMappings)
    .where(ne(groupDiscordMappings.action, 'None'));
  const followed = await ctx.db
    .select({ guildId: guildGroups.guildId, groupId: guildGroups.groupId })
    .from(guildGroups)
    .where(or(eq(guildGroups.enabled, true), inArray(guildGroups.guildId, mapped)));
  if (followed.length === 0) return 0;
  const botId = await ctx.vrchat.currentUserId();
  let asked = 0;
  for (const { guildId, groupId } of followed) {
    const [state] = await ctx.db.select().from(guildSyncState).where(eq(guildSyncState.guildId, guildId));
    const cursor = state?.groupAuditCursor ?? null;
    const since = cursor ?? new Date();
    let newest = since;
    let fresh = 0;
    if (cursor) {
      // Newest first; pages until the cursor (entries at the cursor itself were seen last time).
      for (let offset = 0; ; offset += PAGE) {
        const page = await ctx.vrchat.getGroupAuditLogs(groupId, {
          startDate: cursor,
          eventTypes: FOLLOWED_GROUP_EVENTS,
          n: PAGE,
          offset,
        });
        for (const entry of page.entries) {
          const at = entry.createdAt ? new Date(entry.createdAt) : null;
          if (!at || at <= cursor) continue;
          if (at > newest) newest = at;
          if (entry.actorId !== botId) fresh++;
        }
        if (!page.hasNext || page.entries.length < PAGE) break;
      }
    }
    if (fresh > 0) {
      await requestGuildSync(ctx, guildId, 'group');
      asked++;
    }
    await ctx.db
      .insert(guildSyncState)
      .values({ guildId, groupAuditCursor: newest })
      .onConflictDoUpdate({
        target: guildSyncState.guildId,
        set: { groupAuditCursor: newest },
      });
  }
  return asked;
}
