import type { AppContext } from '../../../kernel/context.js';
import type { DiscordGuildInfo, VrchatGroupRole } from '../../../platforms/ports.js';
import { VrchatError } from '../../../platforms/vrchat/errors.js';
import { linkOf } from '../../group-sync/index.js';

export interface RoleContext {
  /** The server's roles without @everyone, highest first. */
  discordRoles: { id: string; name: string; color: number; position: number }[];
  groupId: string | null;
  /** The linked group's roles; null when VRChat could not be asked (the caller decides what that means). */
  groupRoles: VrchatGroupRole[] | null;
}

/** The VRChat group linked to a server, if any. */
export async function linkedGroupId(ctx: AppContext, guildId: string): Promise<string | null> {
  return (await linkOf(ctx.db, guildId))?.groupId ?? null;
}

/** The roles a world may encode: the server's Discord roles and its linked group's roles. */
export async function roleContext(ctx: AppContext, guild: DiscordGuildInfo): Promise<RoleContext> {
  const discordRoles = guild.roles
    .filter((r) => r.id !== guild.id)
    .map(({ id, name, color, position }) => ({ id, name, color, position }));
  const groupId = await linkedGroupId(ctx, guild.id);
  if (!groupId) return { discordRoles, groupId, groupRoles: [] };
  try {
    return { discordRoles, groupId, groupRoles: await ctx.vrchat.getGroupRoles(groupId) };
  } catch (err) {
    // Listing worlds must not fail because VRChat is down; group role names show as their ids meanwhile.
    if (!(err instanceof VrchatError)) throw err;
    ctx.log.warn({ err, groupId }, 'group roles unavailable');
    return { discordRoles, groupId, groupRoles: null };
  }
}
