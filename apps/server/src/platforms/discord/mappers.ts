import type {
  APIGuild,
  APIGuildMember,
  APIRole,
  CDN,
  Guild,
  GuildMember,
  RESTAPIPartialCurrentUserGuild,
} from 'discord.js';
import type { DiscordGuildInfo, DiscordMemberInfo, DiscordRoleInfo, DiscordUserGuild } from '../ports.js';

const image = { extension: 'png', size: 256 } as const;

/** Highest role first, as Discord's role list shows them. */
const byPosition = (a: DiscordRoleInfo, b: DiscordRoleInfo) =>
  b.position - a.position || a.id.localeCompare(b.id);

/** From the gateway cache. */
export function memberFromCache(m: GuildMember): DiscordMemberInfo {
  return {
    userId: m.id,
    username: m.user.username,
    displayName: m.displayName,
    avatarUrl: m.avatarURL(image) ?? m.user.avatarURL(image),
    // The cache lists @everyone (id = guild id) among a member's roles; the API does not.
    roles: m.roles.cache.filter((r) => r.id !== m.guild.id).map((r) => r.id),
  };
}

/** From a REST answer (same shape as memberFromCache). */
export function memberFromApi(cdn: CDN, guildId: string, m: APIGuildMember): DiscordMemberInfo {
  const user = m.user;
  return {
    userId: user.id,
    username: user.username,
    displayName: m.nick ?? user.global_name ?? user.username,
    avatarUrl: m.avatar
      ? cdn.guildMemberAvatar(guildId, user.id, m.avatar, image)
      : user.avatar
        ? cdn.avatar(user.id, user.avatar, image)
        : null,
    roles: [...m.roles],
  };
}

export function guildFromCache(g: Guild): DiscordGuildInfo {
  return {
    id: g.id,
    name: g.name,
    iconUrl: g.iconURL(image),
    ownerId: g.ownerId,
    roles: g.roles.cache
      .map((r) => ({
        id: r.id,
        name: r.name,
        position: r.position,
        color: r.color,
        permissions: r.permissions.bitfield.toString(),
        managed: r.managed,
      }))
      .sort(byPosition),
  };
}

export function guildFromApi(cdn: CDN, g: APIGuild, roles: APIRole[] = g.roles): DiscordGuildInfo {
  return {
    id: g.id,
    name: g.name,
    iconUrl: g.icon ? cdn.icon(g.id, g.icon, image) : null,
    ownerId: g.owner_id,
    roles: roles
      .map((r) => ({
        id: r.id,
        name: r.name,
        position: r.position,
        color: r.color,
        permissions: r.permissions,
        managed: r.managed,
      }))
      .sort(byPosition),
  };
}

export function userGuildFromApi(cdn: CDN, g: RESTAPIPartialCurrentUserGuild): DiscordUserGuild {
  return {
    id: g.id,
    name: g.name,
    iconUrl: g.icon ? cdn.icon(g.id, g.icon, image) : null,
    owner: g.owner,
    permissions: g.permissions,
  };
}
