import { CDN } from 'discord.js';
import { eq } from 'drizzle-orm';
import { guildPermissions } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import type { DiscordGuildInfo, DiscordMemberInfo } from '../../../platforms/ports.js';
import { memberInfoFromRow } from '../members/member-mirror.port.js';
import { expandPermissions, isDiscordManager } from '../permissions/guild-permissions.js';
import { readGuildInfos } from './guild-snapshot.store.js';
import { completeMembershipsWithGuilds, guildIdsToAsk, snapshotCoverage } from './member-guilds.store.js';

export interface MemberGuild {
  guild: DiscordGuildInfo;
  member: DiscordMemberInfo;
}

/**
 * The servers where both the bot and this user are members. It starts from the user's own memberships in the
 * member mirror: where the mirror lists every member of a server, a server without the user's row is one they
 * are not in, so no server of the bot is asked about one by one. Only servers the mirror does not list
 * completely (no Server Members intent, or not filled yet) are asked per server (the mirror's own rules).
 * The servers themselves come from the server snapshot (or the gateway cache), never from Discord. Once every
 * shard's servers are written (the usual case) that is two queries, whatever the number of the bot's servers;
 * before, the port lists the bot's servers (its gateway may hold some not written yet).
 */
export async function memberGuildsOf(ctx: AppContext, userId: string): Promise<MemberGuild[]> {
  const [listed, coverage] = await Promise.all([
    completeMembershipsWithGuilds(ctx.db, userId),
    snapshotCoverage(ctx.db),
  ]);
  const cdn = new CDN(ctx.config.discord.cdnUrl);
  const found = new Map<string, MemberGuild>();
  const members = new Map<string, DiscordMemberInfo>();
  let unsure = coverage.incomplete;
  if (coverage.allWritten)
    for (const { member, guild } of listed)
      found.set(guild.id, { guild, member: memberInfoFromRow(cdn, guild.id, member) });
  else {
    const botGuildIds = await ctx.discord.botGuildIds();
    const bots = new Set(botGuildIds);
    for (const { member } of listed)
      if (bots.has(member.guildId))
        members.set(member.guildId, memberInfoFromRow(cdn, member.guildId, member));
    unsure = await guildIdsToAsk(ctx.db, botGuildIds);
  }
  await Promise.all(
    unsure.map(async (id) => {
      const member = await ctx.discord.getMember(id, userId);
      if (member) members.set(id, member);
    }),
  );
  // Their details in one read of the snapshot; a server not written yet (its holder just connected) through
  // the port.
  const stored = new Map((await readGuildInfos(ctx.db, [...members.keys()])).map((g) => [g.id, g]));
  await Promise.all(
    [...members].map(async ([id, member]) => {
      const guild = stored.get(id) ?? (await ctx.discord.getGuild(id));
      if (guild) found.set(id, { guild, member });
    }),
  );
  return [...found.values()];
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
