import { and, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { worlds } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid, missing, unavailable } from '../../../kernel/errors.js';
import { BOT_NOT_IN_GUILD, linkedMembersOf, requireGuildPermission } from '../../access/index.js';
import { vrchatOnlyGuestsOf } from '../../community/index.js';
import { groupRolesOf } from '../../group-sync/index.js';
import { atlasDetailOf } from '../world-atlas/world-atlas.reads.js';
import { encodeWorldBody } from './codec/lzw.js';
import { linkedGroupId } from './role-context.js';
import { buildWorldData, WorldDataError, type WorldDataSources } from './world-data/build-world-data.js';
import { WorldDataCache } from './world-data-cache.js';
import { GROUP_ROLES_UNKNOWN, WORLD_NOT_FOUND, type WorldRow } from './worlds.service.js';

/** Everything a world's document is built from, read from Discord, VRChat and the database. */
async function gatherSources(ctx: AppContext, world: WorldRow): Promise<WorldDataSources> {
  const guild = await ctx.discord.getGuild(world.guildId);
  if (!guild) throw missing(BOT_NOT_IN_GUILD);
  // Only ownership-verified links: worlds trust display names, and an unproven link could name anyone.
  const members = await linkedMembersOf(ctx, world.guildId, { verifiedOnly: true });
  const vrchatGuests = await vrchatOnlyGuestsOf(ctx.db, world.guildId);
  const group = world.includeGroupData ? await groupSources(ctx, world.guildId) : { roles: [], members: [] };
  return {
    now: new Date(),
    discordRoles: guild.roles,
    members: members.map(({ link, roleIds }) => ({
      vrcDisplayName: link.vrchatName,
      roleIds,
      plus18: link.ageVerification === 'Plus18',
    })),
    guests: vrchatGuests.map((g) => ({ vrcDisplayName: g.vrcDisplayName ?? '', guestRoleId: g.guestRoleId })),
    groupRoles: group.roles,
    groupMembers: group.members,
    atlas: await atlasDetailOf(ctx.db, world.id),
  };
}

async function groupSources(ctx: AppContext, guildId: string) {
  const groupId = await linkedGroupId(ctx, guildId);
  if (!groupId) return { roles: [], members: [] };
  // The roles from the group-sync wing's copy (no VRChat read per build); the members are read each build.
  const [cached, { members }] = await Promise.all([
    groupRolesOf(ctx, groupId),
    ctx.vrchat.listGroupMembers(groupId),
  ]);
  // Never a document without the group's roles as if it had none: the build fails, the last body is served.
  if (!cached) throw unavailable(GROUP_ROLES_UNKNOWN);
  return {
    roles: cached.roles.map(({ id, name, order }) => ({ id, name, order })),
    members: members.flatMap((m) =>
      m.displayName ? [{ vrcDisplayName: m.displayName, roleIds: m.roleIds }] : [],
    ),
  };
}

/** The world's document as JSON (Preview shows this; downloads get it encoded). */
export async function worldDocument(ctx: AppContext, world: WorldRow): Promise<Record<string, unknown>> {
  const sources = await gatherSources(ctx, world);
  try {
    return buildWorldData(world, sources);
  } catch (err) {
    if (err instanceof WorldDataError) throw invalid(err.message);
    throw err;
  }
}

export async function previewWorldData(ctx: AppContext, actor: Actor, guildId: string, worldId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'WorldPreview');
  const [world] = await ctx.db
    .select()
    .from(worlds)
    .where(and(eq(worlds.guildId, guildId), eq(worlds.id, worldId)));
  if (!world) throw missing(WORLD_NOT_FOUND);
  return worldDocument(ctx, world);
}

const caches = new WeakMap<Database, WorldDataCache>();

/** This process's world data bodies for the context's database (one per test app too). */
export function worldDataCacheOf(ctx: AppContext): WorldDataCache {
  let cache = caches.get(ctx.database);
  if (!cache) {
    cache = new WorldDataCache(ctx, async (world) =>
      encodeWorldBody(JSON.stringify(await worldDocument(ctx, world)), world.compression),
    );
    caches.set(ctx.database, cache);
  }
  return cache;
}

/** A world's settings changed in this process: its next download is built afresh (others hear it by NOTIFY). */
export function worldDataChanged(ctx: AppContext, worldId: string): void {
  worldDataCacheOf(ctx).changed(worldId);
}

/**
 * The body a world downloads (encoded), as served: rebuilt within the minute and at once after a settings
 * change; when a platform is down the last body rather than nothing. The GitHub mirror stores this.
 */
export async function worldDataBody(ctx: AppContext, worldId: string): Promise<string> {
  const body = await worldDataCacheOf(ctx).serve(worldId);
  if (!body) throw missing(WORLD_NOT_FOUND);
  return body.text;
}

/** Rebuilds a world's body now and stores it (the `worlds.rebuild` scheduled task). */
export async function rebuildWorldData(ctx: AppContext, world: WorldRow): Promise<void> {
  await worldDataCacheOf(ctx).rebuild(world);
}
