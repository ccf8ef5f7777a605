import { CDN } from 'discord.js';
import { eq } from 'drizzle-orm';
import { guildPermissions } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import type { DiscordGuildInfo, DiscordMemberInfo } from '../../../platforms/ports.js';
import { memberInfoFromRow } from '../members/member-mirror.port.js';
import { completeMirrorGuildIds, currentMembershipsOf } from '../members/member-mirror.store.js';
import { expandPermissions, isDiscordManager } from '../permissions/guild-permissions.js';
import { guildInfo } from './guild-snapshot.port.js';
import { readGuildSnapshots } from './guild-snapshot.store.js';

export interface MemberGuild {
  guild: DiscordGuildInfo;
  member: DiscordMemberInfo;
}

/**
 * The servers where both the bot and this user are members. It starts from the user's own memberships in the
 * member mirror: where the mirror lists every member of a server, a server without the user's row is one they
 * are not in, so no server of the bot is asked about one by one. Only servers the mirror does not list
 * completely (no Server Members intent, or not filled yet) are asked per server (the mirror's own rules).
 * The servers themselves come from the gateway cache or the server snapshot, never from Discord.
 */
export async function memberGuildsOf(ctx: AppContext, userId: string): Promise<MemberGuild[]> {
  const [botGuildIds, complete, memberships] = await Promise.all([
    ctx.discord.botGuildIds(),
    completeMirrorGuildIds(ctx.db),
    currentMembershipsOf(ctx.db, userId),
  ]);
  const bots = new Set(botGuildIds);
  const cdn = new CDN(ctx.config.discord.cdnUrl);
  const members = new Map<string, DiscordMemberInfo>();
  for (const row of memberships)
    if (bots.has(row.guildId) && complete.has(row.guildId))
      members.set(row.guildId, memberInfoFromRow(cdn, row.guildId, row));
  const unsure = botGuildIds.filter((id) => !complete.has(id));
  await Promise.all(
    unsure.map(async (id) => {
      const member = await ctx.discord.getMember(id, userId);
      if (member) members.set(id, member);
    }),
  );
  // The servers' details in one read of the snapshot (a member of 50 servers: one query, not 50); a server
  // not written yet (its holder just connected) through the port.
  const stored = new Map((await readGuildSnapshots(ctx.db, [...members.keys()])).map((s) => [s.id, s]));
  const found = await Promise.all(
    [...members].map(async ([id, member]) => {
      const snapshot = stored.get(id);
      const guild = snapshot ? guildInfo(snapshot) : await ctx.discord.getGuild(id);
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
