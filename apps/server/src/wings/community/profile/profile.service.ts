import { inArray } from 'drizzle-orm';
import { guestRoles, guildGroups } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import { memberGuildsOf } from '../../access/index.js';
import { findLinkByDiscord } from '../../identity/index.js';
import { heldEntries } from '../guests/slots.js';

export async function getProfile(
  ctx: AppContext,
  user: { id: string; username: string; avatar: string | null },
) {
  const [link, guilds] = await Promise.all([
    findLinkByDiscord(ctx.db, user.id),
    memberGuildsOf(ctx, user.id),
  ]);
  const guildIds = guilds.map((g) => g.guild.id);
  const [entries, groups] = guildIds.length
    ? await Promise.all([
        ctx.db.select().from(guestRoles).where(inArray(guestRoles.guildId, guildIds)),
        ctx.db.select().from(guildGroups).where(inArray(guildGroups.guildId, guildIds)),
      ])
    : [[], []];
  const uniqueGroups = [...new Map(groups.map((g) => [g.groupId, g])).values()];
  return {
    user: { id: user.id, username: user.username, avatar: ctx.discordOAuth.avatarUrl(user.id, user.avatar) },
    linkData: link
      ? {
          id: link.vrcUserId,
          vrchatName: link.vrchatName,
          isVerified: link.isVerified,
          ageVerification: link.ageVerification,
        }
      : null,
    guilds: guilds.map(({ guild, member }) => ({
      id: guild.id,
      name: guild.name,
      icon: guild.iconUrl,
      canSetupGuests:
        heldEntries(
          entries.filter((e) => e.guildId === guild.id),
          member.roles,
        ).length > 0,
    })),
    groups: uniqueGroups.map((g) => ({ id: g.groupId, name: g.name, icon: g.iconUrl })),
  };
}
