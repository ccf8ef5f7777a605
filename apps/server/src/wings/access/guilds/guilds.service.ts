import { eq } from 'drizzle-orm';
import { guildPermissions } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import type { DiscordGuildInfo, DiscordMemberInfo } from '../../../platforms/ports.js';
import { expandPermissions, isDiscordManager } from '../permissions/guild-permissions.js';

export interface MemberGuild {
  guild: DiscordGuildInfo;
  member: DiscordMemberInfo;
}

/** The servers where both the bot and this user are members. */
export async function memberGuildsOf(ctx: AppContext, userId: string): Promise<MemberGuild[]> {
  const ids = await ctx.discord.botGuildIds();
  const found = await Promise.all(
    ids.map(async (id) => {
      const member = await ctx.discord.getMember(id, userId);
      if (!member) return null;
      const guild = await ctx.discord.getGuild(id);
      return guild ? { guild, member } : null;
    }),
  );
  return found.filter((g): g is MemberGuild => g !== null);
}

/** The servers the caller may manage in any way (the server settings list and the SDK's server picker). */
export async function listManageableGuilds(ctx: AppContext, userId: string) {
  const [guilds, grants] = await Promise.all([
    memberGuildsOf(ctx, userId),
    ctx.db.select().from(guildPermissions).where(eq(guildPermissions.userId, userId)),
  ]);
  const grantOf = new Map(grants.map((g) => [g.guildId, g.permissions]));
  return guilds
    .map(({ guild, member }) => ({
      id: guild.id,
      name: guild.name,
      icon: guild.iconUrl,
      permissions: expandPermissions([
        ...(grantOf.get(guild.id) ?? []),
        ...(isDiscordManager(guild, member) ? ['Admin'] : []),
      ]),
    }))
    .filter((g) => g.permissions.length > 0)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
