import type { DiscordToGroupAction, GroupToDiscordAction } from '../../../db/schema/sync.js';
import type { DiscordGuildInfo, VrchatGroupRole } from '../../../platforms/ports.js';
import { EVERYONE_NOT_A_CHOICE, roleUnavailable, unknownRole } from '../../community/index.js';

export const unknownGroupRole = (roleId: string) => `Unknown group role: ${roleId}`;
export const purchaseRole = (roleName: string) =>
  `${roleName} is given by VRChat through a purchase and cannot be mapped.`;
export const ownerRole = (roleName: string) => `${roleName} is the group's owner role and cannot be mapped.`;
export const managedMappingRole = (roleName: string) =>
  `${roleName} is managed by an integration and cannot be mapped.`;
/** The group role ranks at or above the bot's own: VRChat refuses the bot giving or taking it. */
export const groupRoleAboveBot = (roleName: string) =>
  `The bot's role in the group must rank above ${roleName} to give or take it.`;
export const EVERYONE_ACTIONS = 'The @everyone entry can only use the actions None or Membership.';
export const EVERYONE_ROLE_FIXED =
  'The @everyone entry always maps @everyone; its Discord role cannot change.';

/** Discord to group actions that name a group role; the others clear it. */
export const groupRoleActions: readonly DiscordToGroupAction[] = [
  'GrantRolePermanent',
  'GrantRoleTemporary',
  'RevokeRole',
];
export const everyoneActions: readonly DiscordToGroupAction[] = ['None', 'Membership'];
/** Group to Discord actions that name a Discord role; the others clear it. */
export const discordRoleActions: readonly GroupToDiscordAction[] = [
  'GrantRolePermanent',
  'GrantRoleTemporary',
];

/** The group's owner role: first in rank and holding every permission; nobody can be given it. */
const isOwnerRole = (role: VrchatGroupRole) => role.order === 0 || role.permissions.includes('*');

/**
 * Why the bot could not give or take this group role: VRChat lets a member manage only roles ranked
 * below their own highest role (lower order = higher rank); the owner manages every one. null when it can.
 * The same rule the sync uses (sync-observe: manageableRoleIds), checked when a mapping is saved.
 */
export function groupRoleRankProblem(
  roles: readonly VrchatGroupRole[],
  bot: { isOwner: boolean; roleIds: readonly string[] },
  roleId: string,
): string | null {
  const role = roles.find((r) => r.id === roleId);
  if (!role) return unknownGroupRole(roleId);
  const held = roles.filter((r) => bot.roleIds.includes(r.id));
  if (bot.isOwner || held.some(isOwnerRole)) return null;
  const botRank = Math.min(Number.MAX_SAFE_INTEGER, ...held.map((r) => r.order));
  return role.order <= botRank ? groupRoleAboveBot(role.name) : null;
}

/** Roles a mapping may name on the Discord side: not @everyone, not managed by an integration. */
export function offeredGuildRoles(guild: DiscordGuildInfo) {
  return guild.roles.filter((r) => r.id !== guild.id && !r.managed).map((r) => ({ id: r.id, name: r.name }));
}

/** The same roles as the bot would give them: marked `aboveBot` when the bot's highest role is not above them. */
export function givenGuildRoles(guild: DiscordGuildInfo, botRoleIds: readonly string[] | null) {
  const byId = new Map(guild.roles.map((r) => [r.id, r]));
  return offeredGuildRoles(guild).map((r) => {
    const role = byId.get(r.id);
    const unavailable = role ? roleUnavailable(guild, botRoleIds, role) : null;
    return { ...r, unavailable: unavailable === 'aboveBot' ? ('aboveBot' as const) : null };
  });
}

/** Roles a mapping may name on the group side: VRChat manages the owner and purchase-only roles itself. */
export function offeredGroupRoles(roles: readonly VrchatGroupRole[]) {
  return roles.filter((r) => !r.requiresPurchase && !isOwnerRole(r)).map((r) => ({ id: r.id, name: r.name }));
}

/** Why a Discord role cannot be named in a mapping (unknown, @everyone, managed); null when it can. */
export function discordRoleProblem(guild: DiscordGuildInfo, roleId: string): string | null {
  if (roleId === guild.id) return EVERYONE_NOT_A_CHOICE;
  const role = guild.roles.find((r) => r.id === roleId);
  if (!role) return unknownRole(roleId);
  if (role.managed) return managedMappingRole(role.name);
  return null;
}

/** Why a group role cannot be named in a mapping (unknown, purchase-only, owner); null when it can. */
export function groupRoleProblem(roles: readonly VrchatGroupRole[], roleId: string): string | null {
  const role = roles.find((r) => r.id === roleId);
  if (!role) return unknownGroupRole(roleId);
  if (role.requiresPurchase) return purchaseRole(role.name);
  if (isOwnerRole(role)) return ownerRole(role.name);
  return null;
}
