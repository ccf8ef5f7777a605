import type { DiscordGuildInfo, DiscordMemberInfo } from '../../../platforms/ports.js';

/** Per-server permissions, as the admin area names them. */
export const guildPermissionValues = [
  'Admin',
  'WorldPreview',
  'ViewGuild',
  'ViewWorlds',
  'ManageWorlds',
  'ViewImages',
  'ManageImages',
] as const;
export type GuildPermission = (typeof guildPermissionValues)[number];

/** What each permission brings with it: managing implies viewing, viewing worlds implies previewing them. */
const implied: Record<GuildPermission, readonly GuildPermission[]> = {
  Admin: guildPermissionValues,
  ManageWorlds: ['ViewWorlds', 'WorldPreview'],
  ViewWorlds: ['WorldPreview'],
  ManageImages: ['ViewImages'],
  ViewImages: [],
  WorldPreview: [],
  ViewGuild: [],
};

/** The granted permissions with everything they imply, in the canonical order. */
export function expandPermissions(granted: Iterable<string>): GuildPermission[] {
  const all = new Set<GuildPermission>();
  for (const p of granted) {
    if (!(p in implied)) continue;
    all.add(p as GuildPermission);
    for (const q of implied[p as GuildPermission]) all.add(q);
  }
  return guildPermissionValues.filter((p) => all.has(p));
}

const ADMINISTRATOR = 1n << 3n;
const MANAGE_GUILD = 1n << 5n;

/**
 * Discord's owner and members whose roles grant Administrator or Manage Server run the server there, so
 * they are Admin here too; nobody can lock them out from the dashboard.
 */
export function isDiscordManager(
  guild: DiscordGuildInfo,
  member: Pick<DiscordMemberInfo, 'userId' | 'roles'>,
): boolean {
  return discordManagerReason(guild, member) !== null;
}

/** Why Discord makes someone Admin here, as the permissions list shows it. */
export type DiscordManagerReason = 'Server owner' | 'Discord Administrator' | 'Manage Server';

/** The reason `member` runs the server on Discord (owner first, then Administrator), or null. */
export function discordManagerReason(
  guild: DiscordGuildInfo,
  member: Pick<DiscordMemberInfo, 'userId' | 'roles'>,
): DiscordManagerReason | null {
  if (guild.ownerId === member.userId) return 'Server owner';
  const held = new Set([guild.id, ...member.roles]);
  let bits = 0n;
  for (const role of guild.roles) if (held.has(role.id)) bits |= BigInt(role.permissions);
  if ((bits & ADMINISTRATOR) !== 0n) return 'Discord Administrator';
  if ((bits & MANAGE_GUILD) !== 0n) return 'Manage Server';
  return null;
}

/** The roles (not @everyone) whose holders run the server on Discord: Administrator or Manage Server. */
export function discordManagerRoleIds(guild: DiscordGuildInfo): string[] {
  return guild.roles
    .filter((r) => r.id !== guild.id && (BigInt(r.permissions) & (ADMINISTRATOR | MANAGE_GUILD)) !== 0n)
    .map((r) => r.id);
}
