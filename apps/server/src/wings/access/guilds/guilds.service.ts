import { eq } from 'drizzle-orm';
import { guildPermissions } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import { memberGuildsOf } from '../../community/profile/profile.service.js';
import { expandPermissions, isDiscordManager } from '../permissions/guild-permissions.js';

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
