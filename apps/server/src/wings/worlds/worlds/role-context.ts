import type { AppContext } from '../../../kernel/context.js';
import type { DiscordGuildInfo, VrchatGroupRole } from '../../../platforms/ports.js';
import { groupRolesOf, linkOf } from '../../group-sync/index.js';

export interface RoleContext {
  /** The server's roles without @everyone, highest first. */
  discordRoles: { id: string; name: string; color: number; position: number }[];
  groupId: string | null;
  /**
   * The linked group's roles (the group-sync wing's cached copy; no VRChat call when one is kept); null when
   * there is no copy and VRChat could not be asked (the caller says so: never an empty list that looks true).
   */
  groupRoles: VrchatGroupRole[] | null;
  /** When VRChat answered `groupRoles` (null: no group, or unknown). */
  groupRolesReadAt: Date | null;
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
  if (!groupId) return { discordRoles, groupId, groupRoles: [], groupRolesReadAt: null };
  // Listing worlds must not fail because VRChat is down; without a copy group role names show as their ids.
  const cached = await groupRolesOf(ctx, groupId);
  return {
    discordRoles,
    groupId,
    groupRoles: cached?.roles ?? null,
    groupRolesReadAt: cached?.readAt ?? null,
  };
}
