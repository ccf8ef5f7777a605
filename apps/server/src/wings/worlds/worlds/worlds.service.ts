import { and, asc, count, eq, sql } from 'drizzle-orm';
import { worlds } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, invalid, unavailable } from '../../../kernel/errors.js';
import { rowOrMissing } from '../../../kernel/rows.js';
import { requireGuildPermission } from '../../access/index.js';
import { type RoleContext, roleContext } from './role-context.js';
import { MAX_WORLDS_PER_GUILD, type RoleListKey, roleListKeys, type WorldUpdate } from './worlds.schemas.js';

export type WorldRow = typeof worlds.$inferSelect;

export const WORLD_NOT_FOUND = 'World not found.';
export const COMPRESSION_IS_PERMANENT = 'Compression cannot be turned off once on.';
export const CUSTOM_DATA_NOT_JSON = 'Custom World Data is not valid JSON.';
export const UNLOCK_BEFORE_DELETE = 'Unlock the world before deleting it.';
export const GROUP_ROLES_UNKNOWN =
  "The VRChat group's roles could not be read right now. Try again in a minute.";
export const TOO_MANY_WORLDS = `A server can have at most ${MAX_WORLDS_PER_GUILD} worlds.`;

/** Where worlds download their data: this server, and the GitHub Pages mirror when one is configured. */
export interface WorldUrls {
  origin: string;
  mirrorUrl: string | null;
}

function roleEntries(ids: string[], roles: { id: string; name: string; color: number; position: number }[]) {
  return ids.map((id) => {
    const role = roles.find((r) => r.id === id);
    // A role deleted since it was picked stays visible (so it can be removed) but encodes nobody.
    return role
      ? { roleId: id, roleName: role.name, color: role.color, position: role.position }
      : { roleId: id, roleName: 'Deleted role', color: 0, position: -1 };
  });
}

const groupRolesAsEntries = (roles: RoleContext['groupRoles']) =>
  (roles ?? []).map((r) => ({ id: r.id, name: r.name, color: 0, position: r.order }));

export function toWorld(row: WorldRow, roles: RoleContext, urls: WorldUrls) {
  const groupRoles = roles.groupRoles
    ? groupRolesAsEntries(roles.groupRoles)
    : [...row.groupEncodeRoles, ...row.groupAlwaysEncodeRoles].map((id) => ({
        id,
        name: id,
        color: 0,
        position: 0,
      }));
  return {
    id: row.id,
    name: row.name,
    locked: row.locked,
    compression: row.compression,
    jsonMode: row.jsonMode,
    enabled: row.enabled,
    includeDiscordData: row.includeDiscordData,
    includeGroupData: row.includeGroupData,
    customData: row.customData,
    discordEncodeRoles: roleEntries(row.discordEncodeRoles, roles.discordRoles),
    discordAlwaysEncodeRoles: roleEntries(row.discordAlwaysEncodeRoles, roles.discordRoles),
    groupEncodeRoles: roleEntries(row.groupEncodeRoles, groupRoles),
    groupAlwaysEncodeRoles: roleEntries(row.groupAlwaysEncodeRoles, groupRoles),
    untrustedUrl: `${urls.origin}/data/v2/${row.id}`,
    trustedUrl: urls.mirrorUrl ? `${urls.mirrorUrl}/worlds/${row.id}` : null,
  };
}

async function findWorld(ctx: AppContext, guildId: string, worldId: string): Promise<WorldRow> {
  return rowOrMissing(
    ctx.db,
    worlds,
    and(eq(worlds.guildId, guildId), eq(worlds.id, worldId)),
    WORLD_NOT_FOUND,
  );
}

export async function listWorlds(ctx: AppContext, actor: Actor, guildId: string, urls: WorldUrls) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'ViewWorlds');
  const [rows, roles] = await Promise.all([
    ctx.db
      .select()
      .from(worlds)
      .where(eq(worlds.guildId, guildId))
      .orderBy(asc(worlds.createdAt), asc(worlds.id)),
    roleContext(ctx, guild),
  ]);
  return {
    worlds: rows.map((row) => toWorld(row, roles, urls)),
    discordRoles: roles.discordRoles,
    // null: the group's roles are not known right now (no cached copy and VRChat could not be asked).
    groupRoles: roles.groupRoles?.map(({ id, name, order }) => ({ id, name, order })) ?? null,
    groupRolesReadAt: roles.groupRolesReadAt?.toISOString() ?? null,
  };
}

export async function getWorld(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  worldId: string,
  urls: WorldUrls,
) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'ViewWorlds');
  const row = await findWorld(ctx, guildId, worldId);
  return toWorld(row, await roleContext(ctx, guild), urls);
}

/** 'Create new': a locked world with the defaults; answers the whole list as GET does. */
export async function createWorld(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  name: string | undefined,
  urls: WorldUrls,
) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageWorlds');
  await ctx.db.transaction(async (tx) => {
    // Serialised per server so two quick clicks cannot pass the limit together.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`worlds:${guildId}`}))`);
    const [{ n }] = await tx.select({ n: count() }).from(worlds).where(eq(worlds.guildId, guildId));
    if (n >= MAX_WORLDS_PER_GUILD) throw conflict(TOO_MANY_WORLDS);
    const [row] = await tx
      .insert(worlds)
      .values({ guildId, name: name?.trim() || `World ${n + 1}` })
      .returning();
    await audit(tx, {
      action: 'world.create',
      actor,
      guildId,
      targetId: row.id,
      details: { name: row.name },
    });
  });
  return listWorlds(ctx, actor, guildId, urls);
}

function checkUpdate(row: WorldRow, change: WorldUpdate) {
  if (row.compression && change.compression === false) throw invalid(COMPRESSION_IS_PERMANENT);
  const jsonMode = change.jsonMode ?? row.jsonMode;
  const customData = change.customData ?? row.customData;
  if (jsonMode && customData.trim()) {
    try {
      JSON.parse(customData);
    } catch {
      throw invalid(CUSTOM_DATA_NOT_JSON);
    }
  }
}

/** Changes any world setting; what changed is audit-logged (Custom World Data by size only). */
export async function updateWorld(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  worldId: string,
  change: WorldUpdate,
  urls: WorldUrls,
) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'ManageWorlds');
  const row = await findWorld(ctx, guildId, worldId);
  checkUpdate(row, change);
  const [updated] = await ctx.db
    .update(worlds)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(worlds.id, worldId))
    .returning();
  const changed = Object.fromEntries(
    Object.entries(change)
      .filter(([key, value]) => row[key as keyof WorldUpdate] !== value)
      .map(([key, value]) => (key === 'customData' ? [key, { length: String(value).length }] : [key, value])),
  );
  await audit(ctx.db, { action: 'world.update', actor, guildId, targetId: worldId, details: changed });
  return toWorld(updated, await roleContext(ctx, guild), urls);
}

/** Sets one of the four role lists (picker order kept); every id must be a role of the server or group. */
export async function setWorldRoles(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  worldId: string,
  change: Partial<Record<RoleListKey, string[]>>,
  urls: WorldUrls,
) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'ManageWorlds');
  const row = await findWorld(ctx, guildId, worldId);
  const key = roleListKeys.find((k) => change[k] !== undefined) as RoleListKey;
  const ids = [...new Set(change[key] ?? [])];
  const roles = await roleContext(ctx, guild);
  if (key.startsWith('group') && roles.groupId === null) throw invalid('Link a VRChat group first.');
  if (key.startsWith('group') && roles.groupRoles === null) throw unavailable(GROUP_ROLES_UNKNOWN);
  const known = key.startsWith('discord')
    ? roles.discordRoles.map((r) => r.id)
    : (roles.groupRoles ?? []).map((r) => r.id);
  // Keep roles picked before (even if deleted since) so saving another change never fails on them.
  const unknown = ids.filter((id) => !known.includes(id) && !row[key].includes(id));
  if (unknown.length) throw invalid(`Unknown role: ${unknown.join(', ')}`);
  const [updated] = await ctx.db
    .update(worlds)
    .set({ [key]: ids, updatedAt: new Date() })
    .where(eq(worlds.id, worldId))
    .returning();
  await audit(ctx.db, {
    action: 'world.roles',
    actor,
    guildId,
    targetId: worldId,
    details: { list: key, before: row[key], after: ids, summary: roleListSummary(key, ids, roles) },
  });
  return toWorld(updated, roles, urls);
}

const roleListLabels: Record<RoleListKey, string> = {
  discordEncodeRoles: 'Discord Encode Roles',
  discordAlwaysEncodeRoles: 'Discord Always Encode Roles',
  groupEncodeRoles: 'Group Encode Roles',
  groupAlwaysEncodeRoles: 'Group Always Encode Roles',
};

/** The audit summary of a world's role list: the list and its roles by name (ids of roles since gone). */
function roleListSummary(key: RoleListKey, ids: string[], roles: RoleContext) {
  const known = key.startsWith('discord') ? roles.discordRoles : (roles.groupRoles ?? []);
  const names = ids.map((id) => known.find((r) => r.id === id)?.name ?? id);
  return `${roleListLabels[key]}: ${names.length ? names.join(', ') : 'none'}`;
}

export async function deleteWorld(ctx: AppContext, actor: Actor, guildId: string, worldId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageWorlds');
  const row = await findWorld(ctx, guildId, worldId);
  if (row.locked) throw conflict(UNLOCK_BEFORE_DELETE);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(worlds).where(eq(worlds.id, worldId));
    await audit(tx, {
      action: 'world.delete',
      actor,
      guildId,
      targetId: worldId,
      details: { name: row.name },
    });
  });
}
