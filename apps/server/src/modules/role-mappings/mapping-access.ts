import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import type { DiscordGuildInfo, VrchatGroupRole } from '../../platforms/ports.js';
import { linkOf, NO_LINKED_GROUP } from '../groups/groups.service.js';
import { requireGuildPermission } from '../permissions/access.service.js';
import { requestGuildSync } from '../sync/sync-trigger.js';

export const MAPPING_NOT_FOUND = 'Role mapping not found.';

export interface MappingScope {
  guild: DiscordGuildInfo;
  groupId: string;
  /** The linked group's roles as VRChat has them now (asked for once per request, when needed). */
  groupRoles: () => Promise<VrchatGroupRole[]>;
}

/** Every mapping route: Admin of the server, which must have a linked VRChat group (404 otherwise). */
export async function requireMappingScope(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
): Promise<MappingScope> {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const link = await linkOf(ctx.db, guildId);
  if (!link) throw notFound(NO_LINKED_GROUP);
  let roles: Promise<VrchatGroupRole[]> | undefined;
  return {
    guild,
    groupId: link.groupId,
    groupRoles: () => {
      roles ??= ctx.vrchat.getGroupRoles(link.groupId);
      return roles;
    },
  };
}

/** After a saved change: the bot applies the mappings soon (bursts of edits collapse into one sync). */
export const mappingsChanged = (ctx: AppContext, guildId: string) =>
  requestGuildSync(ctx, guildId, 'mappings');
