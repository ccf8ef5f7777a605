import { BOT_NEEDS_MANAGE_ROLES, roleAboveBotMessage } from '../../../platforms/discord/errors.js';
import type { DiscordGuildInfo } from '../../../platforms/ports.js';

const ADMINISTRATOR = 1n << 3n;
const MANAGE_ROLES = 1n << 28n;

export const EVERYONE_NOT_A_CHOICE = 'The @everyone role cannot be chosen.';
export const unknownRole = (roleId: string) => `Unknown role: ${roleId}`;
export const managedRole = (roleName: string) =>
  `${roleName} is managed by an integration and cannot be given to members.`;

/** Why a role cannot be chosen in this server at all (unknown, or @everyone); null when it can. */
export function roleChoiceProblem(guild: DiscordGuildInfo, roleId: string): string | null {
  if (roleId === guild.id) return EVERYONE_NOT_A_CHOICE;
  if (!guild.roles.some((r) => r.id === roleId)) return unknownRole(roleId);
  return null;
}

/**
 * Why the bot could not give this role to members, checked before it is saved so the admin learns it now
 * rather than when the bot first tries (Discord's rules: Manage Roles, and strictly below the bot's highest
 * role; integration roles never). Same wording as when Discord refuses. null when the bot can give it.
 */
export function assignableRoleProblem(
  guild: DiscordGuildInfo,
  botRoleIds: readonly string[],
  roleId: string,
): string | null {
  const choice = roleChoiceProblem(guild, roleId);
  if (choice) return choice;
  const role = guild.roles.find((r) => r.id === roleId);
  if (!role) return unknownRole(roleId);
  if (role.managed) return managedRole(role.name);
  const held = botHeldRoles(guild, botRoleIds);
  const bits = held.reduce((all, r) => all | BigInt(r.permissions), 0n);
  if ((bits & (ADMINISTRATOR | MANAGE_ROLES)) === 0n) return BOT_NEEDS_MANAGE_ROLES;
  if (role.position >= botRank(held)) return roleAboveBotMessage(role.name);
  return null;
}

/** The roles the bot holds, @everyone included. */
const botHeldRoles = (guild: DiscordGuildInfo, botRoleIds: readonly string[]) =>
  guild.roles.filter((r) => r.id === guild.id || botRoleIds.includes(r.id));
/** The position of the bot's highest role: it may give only roles strictly below it. */
const botRank = (held: readonly { position: number }[]) => Math.max(0, ...held.map((r) => r.position));

/** Why no permission would let the bot give a role: an integration's role, or one at or above the bot's highest. */
export type RoleUnavailable = 'managed' | 'aboveBot';

/**
 * What role pickers show disabled (with the reason), so an admin does not choose a role the bot cannot give and
 * learn it only on save. `botRoleIds` null: the bot's membership is not known, so only managed roles are marked.
 */
export function roleUnavailable(
  guild: DiscordGuildInfo,
  botRoleIds: readonly string[] | null,
  role: { managed: boolean; position: number },
): RoleUnavailable | null {
  if (role.managed) return 'managed';
  if (!botRoleIds) return null;
  return role.position >= botRank(botHeldRoles(guild, botRoleIds)) ? 'aboveBot' : null;
}
