import { ALL_PERMISSIONS, Permission } from './permissions.js';
import type { DiscordState } from './state.js';
import type { SimChannel, SimGuild } from './types.js';

/**
 * A member's permissions in one channel, as Discord computes them: guild permissions (owner and
 * Administrator get everything), then the @everyone overwrite, the member's role overwrites together
 * (deny first, then allow) and the member's own overwrite. Without View Channel nothing else applies.
 */
export function channelPermissionsOf(
  state: DiscordState,
  guild: SimGuild,
  channel: SimChannel,
  userId: string,
): bigint {
  const base = state.permissionsOf(guild, userId);
  if ((base & Permission.Administrator) !== 0n || base === ALL_PERMISSIONS) return ALL_PERMISSIONS;
  const overwrites = channel.permissionOverwrites ?? [];
  let perms = base;
  const everyone = overwrites.find((o) => o.type === 0 && o.id === guild.id);
  if (everyone) perms = (perms & ~everyone.deny) | everyone.allow;
  const roles = new Set(guild.members.get(userId)?.roles ?? []);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type !== 0 || o.id === guild.id || !roles.has(o.id)) continue;
    allow |= o.allow;
    deny |= o.deny;
  }
  perms = (perms & ~deny) | allow;
  const own = overwrites.find((o) => o.type === 1 && o.id === userId);
  if (own) perms = (perms & ~own.deny) | own.allow;
  return (perms & Permission.ViewChannel) === 0n ? 0n : perms;
}
