import { discordApp } from '../../demo.js';
import {
  missingAccess,
  missingPermissions,
  notAuthorizedForApp,
  unknownMember,
  unknownRole,
} from '../errors.js';
import { has } from '../permissions.js';
import type { DiscordState } from '../state.js';
import type { SimGuild, SimMember, SimRole } from '../types.js';

/** A guild the bot can see: unknown ids are 10004, guilds the bot is not in are 50001 (as Discord answers). */
export function botGuild(state: DiscordState, guildId: string): SimGuild {
  const guild = state.requireGuild(guildId);
  if (!state.isBotIn(guild)) throw missingAccess();
  return guild;
}

export function requireMember(guild: SimGuild, userId: string): SimMember {
  const member = guild.members.get(userId);
  if (!member) throw unknownMember();
  return member;
}

export function requireRole(guild: SimGuild, roleId: string): SimRole {
  const role = guild.roles.get(roleId);
  if (!role) throw unknownRole();
  return role;
}

export function requireBotPermission(state: DiscordState, guild: SimGuild, bit: bigint): void {
  if (!has(state.permissionsOf(guild, discordApp.botUserId), bit)) throw missingPermissions();
}

/**
 * Role hierarchy as Discord enforces it for the bot: it may only grant, revoke or edit roles strictly
 * below its own highest role, never managed roles (other integrations' or its own) nor @everyone.
 */
export function requireManageableRole(state: DiscordState, guild: SimGuild, role: SimRole): void {
  if (role.managed || role.id === guild.id) throw missingPermissions();
  if (guild.ownerId === discordApp.botUserId) return;
  if (state.highestPosition(guild, discordApp.botUserId) <= role.position) throw missingPermissions();
}

/** Application-scoped routes must name our application. */
export function requireOwnApp(applicationId: string): void {
  if (applicationId !== discordApp.clientId) throw notAuthorizedForApp();
}
