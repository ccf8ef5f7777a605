import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { namesIn } from '../../../db/name-lookup.js';
import { groupInvites, linkEvents, vrchatLinks } from '../../../db/schema/index.js';

/**
 * What other wings read of the links (this module owns vrchat_links, link_events and group_invites): which
 * users are linked, the link events nobody handled yet, the invites the sync recorded (and the sync's record of an invite it sent).
 */

/** Those of these Discord users who have a link. */
export async function linkedDiscordIds(db: Queryable, discordUserIds: string[]): Promise<Set<string>> {
  if (discordUserIds.length === 0) return new Set();
  const rows = await db
    .select({ id: vrchatLinks.discordUserId })
    .from(vrchatLinks)
    .where(inArray(vrchatLinks.discordUserId, discordUserIds));
  return new Set(rows.map((r) => r.id));
}

/** The oldest link events nobody handled yet, at most `limit`. */
export async function unhandledLinkEvents(db: Queryable, limit: number) {
  return db
    .select({
      id: linkEvents.id,
      discordUserId: linkEvents.discordUserId,
      vrcUserId: linkEvents.vrcUserId,
      kind: linkEvents.kind,
    })
    .from(linkEvents)
    .where(isNull(linkEvents.processedAt))
    .orderBy(asc(linkEvents.id))
    .limit(limit);
}

/** Marks link events handled. */
export async function markLinkEventsHandled(db: Queryable, ids: number[]): Promise<void> {
  await db.update(linkEvents).set({ processedAt: new Date() }).where(inArray(linkEvents.id, ids));
}

/** The VRChat users the sync recorded an invite for into this group. */
export async function recordedInvitesOf(db: Queryable, groupId: string) {
  return db
    .select({ vrcUserId: groupInvites.vrcUserId })
    .from(groupInvites)
    .where(eq(groupInvites.groupId, groupId));
}

/** The groups the sync recorded an invite of this VRChat account into, sent through this Discord user's link. */
export async function invitesSentThrough(db: Queryable, discordUserId: string, vrcUserId: string) {
  const rows = await db
    .select({ groupId: groupInvites.groupId })
    .from(groupInvites)
    .where(and(eq(groupInvites.discordUserId, discordUserId), eq(groupInvites.vrcUserId, vrcUserId)));
  return rows.map((r) => r.groupId);
}

/** Forgets the sync's record of an invite (withdrawn): a later sync may invite anew. */
export async function forgetInviteSent(db: Queryable, discordUserId: string, groupId: string): Promise<void> {
  await db
    .delete(groupInvites)
    .where(and(eq(groupInvites.discordUserId, discordUserId), eq(groupInvites.groupId, groupId)));
}

/** Records the invite the sync sent into a group (once: a repeat is a no-op). */
export async function recordInviteSent(
  db: Queryable,
  invite: { discordUserId: string; groupId: string; vrcUserId: string },
): Promise<void> {
  await db.insert(groupInvites).values(invite).onConflictDoNothing();
}

/** The VRChat names of these linked VRChat accounts, by `usr_` id. */
export const vrchatNamesOf = (db: Queryable, guildId: string, ids: readonly string[]) =>
  namesIn(db, { table: vrchatLinks, id: vrchatLinks.vrcUserId, name: vrchatLinks.vrchatName }, ids, guildId);
