import { discordApp } from '../demo.js';
import { unknownMember, unknownRole, unknownUser, userBanned } from './errors.js';
import { membersChanged } from './member-index.js';
import { memberObject, roleObject, userObject } from './serialize.js';
import { newSnowflake } from './snowflake.js';
import type { DiscordState } from './state.js';
import type { SimGuild, SimMember, SimRole } from './types.js';

/**
 * Mutations of guild membership and roles. Every change goes through here so the gateway sees
 * the same events Discord would send, whoever caused it (REST, OAuth bot install, control API).
 */

export function addMember(
  state: DiscordState,
  guild: SimGuild,
  userId: string,
  opts: { roles?: string[]; nick?: string | null } = {},
): SimMember {
  if (!state.users.has(userId)) throw unknownUser();
  if (guild.bans?.has(userId)) throw userBanned();
  const existing = guild.members.get(userId);
  if (existing) return existing;
  for (const roleId of opts.roles ?? []) if (!guild.roles.has(roleId)) throw unknownRole();
  const member: SimMember = {
    userId,
    nick: opts.nick ?? null,
    roles: [...new Set((opts.roles ?? []).filter((r) => r !== guild.id))],
    joinedAt: new Date().toISOString(),
  };
  guild.members.set(userId, member);
  membersChanged(guild);
  if (userId === discordApp.botUserId) state.dispatch('GUILD_CREATE', { id: guild.id }, guild.id);
  else state.dispatch('GUILD_MEMBER_ADD', { ...memberObject(state, member), guild_id: guild.id }, guild.id);
  return member;
}

export function removeMember(state: DiscordState, guild: SimGuild, userId: string): void {
  const member = guild.members.get(userId);
  if (!member) throw unknownMember();
  if (userId === discordApp.botUserId) {
    // Discord sends GUILD_DELETE (without `unavailable`) to a bot that was removed, then forgets the guild.
    state.dispatch('GUILD_DELETE', { id: guild.id }, guild.id);
    guild.members.delete(userId);
    membersChanged(guild);
    for (const role of [...guild.roles.values()])
      if (role.botId === userId) deleteRole(state, guild, role.id);
    return;
  }
  guild.members.delete(userId);
  membersChanged(guild);
  const user = state.users.get(userId)!;
  state.dispatch(
    'GUILD_MEMBER_REMOVE',
    { guild_id: guild.id, user: memberObject(state, { ...member, userId: user.id }).user },
    guild.id,
  );
}

/**
 * A moderator bans a member: as on Discord, GUILD_BAN_ADD (Guild Moderation intent) and, when they were a
 * member, GUILD_MEMBER_REMOVE (Guild Members intent). The user cannot join again while banned.
 */
export function banMember(state: DiscordState, guild: SimGuild, userId: string): void {
  const user = state.users.get(userId);
  if (!user || userId === discordApp.botUserId || userId === guild.ownerId) throw unknownMember();
  guild.bans ??= new Set();
  guild.bans.add(userId);
  state.dispatch('GUILD_BAN_ADD', { guild_id: guild.id, user: userObject(user) }, guild.id);
  if (guild.members.has(userId)) removeMember(state, guild, userId);
}

/** Sets the member's roles; emits GUILD_MEMBER_UPDATE only when something changed. */
export function setMemberRoles(
  state: DiscordState,
  guild: SimGuild,
  member: SimMember,
  roles: string[],
): void {
  const next = [...new Set(roles.filter((r) => r !== guild.id))];
  const same = next.length === member.roles.length && next.every((r) => member.roles.includes(r));
  if (same) return;
  member.roles = next;
  state.dispatch('GUILD_MEMBER_UPDATE', { ...memberObject(state, member), guild_id: guild.id }, guild.id);
}

export function setNick(state: DiscordState, guild: SimGuild, member: SimMember, nick: string | null): void {
  if (member.nick === nick) return;
  member.nick = nick;
  state.dispatch('GUILD_MEMBER_UPDATE', { ...memberObject(state, member), guild_id: guild.id }, guild.id);
}

/** Non-@everyone roles, highest first. */
function ladder(guild: SimGuild): SimRole[] {
  return [...guild.roles.values()]
    .filter((r) => r.id !== guild.id)
    .sort((a, b) => b.position - a.position || (a.id < b.id ? 1 : -1));
}

/** Renumbers positions 1..n after inserting/moving `role` to `position`; reports roles whose position changed. */
function placeRole(guild: SimGuild, role: SimRole, position: number): SimRole[] {
  const before = new Map([...guild.roles.values()].map((r) => [r.id, r.position]));
  const others = ladder(guild).filter((r) => r.id !== role.id);
  const clamped = Math.max(1, Math.min(position, others.length + 1));
  // Index in the highest-first ladder where the role lands.
  const index = others.length + 1 - clamped;
  others.splice(index, 0, role);
  others.forEach((r, i) => {
    r.position = others.length - i;
  });
  return others.filter((r) => r !== role && before.get(r.id) !== r.position);
}

export interface RoleInput {
  name?: string;
  color?: number;
  permissions?: bigint;
  hoist?: boolean;
  mentionable?: boolean;
  position?: number;
}

export function createRole(
  state: DiscordState,
  guild: SimGuild,
  input: RoleInput & { managedFor?: string },
): SimRole {
  const role: SimRole = {
    id: newSnowflake(),
    name: input.name ?? 'new role',
    color: input.color ?? 0,
    position: 1,
    permissions: input.permissions ?? 0n,
    hoist: input.hoist ?? false,
    managed: Boolean(input.managedFor),
    mentionable: input.mentionable ?? false,
    ...(input.managedFor ? { botId: input.managedFor } : {}),
  };
  guild.roles.set(role.id, role);
  const moved = placeRole(guild, role, input.position ?? 1);
  state.dispatch('GUILD_ROLE_CREATE', { guild_id: guild.id, role: roleObject(role) }, guild.id);
  for (const r of moved)
    state.dispatch('GUILD_ROLE_UPDATE', { guild_id: guild.id, role: roleObject(r) }, guild.id);
  return role;
}

export function updateRole(state: DiscordState, guild: SimGuild, role: SimRole, input: RoleInput): SimRole {
  if (input.name !== undefined) role.name = input.name;
  if (input.color !== undefined) role.color = input.color;
  if (input.permissions !== undefined) role.permissions = input.permissions;
  if (input.hoist !== undefined) role.hoist = input.hoist;
  if (input.mentionable !== undefined) role.mentionable = input.mentionable;
  const moved =
    input.position !== undefined && role.id !== guild.id ? placeRole(guild, role, input.position) : [];
  state.dispatch('GUILD_ROLE_UPDATE', { guild_id: guild.id, role: roleObject(role) }, guild.id);
  for (const r of moved)
    state.dispatch('GUILD_ROLE_UPDATE', { guild_id: guild.id, role: roleObject(r) }, guild.id);
  return role;
}

export function deleteRole(state: DiscordState, guild: SimGuild, roleId: string): void {
  if (!guild.roles.has(roleId) || roleId === guild.id) throw unknownRole();
  guild.roles.delete(roleId);
  // Discord drops the role from members silently (no GUILD_MEMBER_UPDATE); clients prune it themselves.
  for (const m of guild.members.values()) m.roles = m.roles.filter((r) => r !== roleId);
  ladder(guild).forEach((r, i, all) => {
    r.position = all.length - i;
  });
  state.dispatch('GUILD_ROLE_DELETE', { guild_id: guild.id, role_id: roleId }, guild.id);
}

/**
 * What the bot-install OAuth flow does: a managed role for the bot (placed at the bottom, as Discord
 * does, so admins must drag it up before it can manage roles), the bot member, then GUILD_CREATE.
 * Re-installing only updates the managed role's permissions.
 */
export function installBot(state: DiscordState, guild: SimGuild, permissions: bigint): void {
  const existing = [...guild.roles.values()].find((r) => r.botId === discordApp.botUserId);
  if (guild.members.has(discordApp.botUserId)) {
    if (existing && existing.permissions !== permissions) updateRole(state, guild, existing, { permissions });
    return;
  }
  const role =
    existing ??
    createRole(state, guild, { name: discordApp.botUsername, permissions, managedFor: discordApp.botUserId });
  addMember(state, guild, discordApp.botUserId, { roles: [role.id] });
}
