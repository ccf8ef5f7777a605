import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { guests, worldDataCache, worlds } from '../../db/schema/index.js';
import { badRequest, notFound } from '../../http/errors.js';
import { linkedMembersOf } from '../members/member-mirror.reads.js';
import { BOT_NOT_IN_GUILD, requireGuildPermission } from '../permissions/access.service.js';
import { encodeWorldBody } from './codec/lzw.js';
import { linkedGroupId } from './role-context.js';
import { buildWorldData, WorldDataError, type WorldDataSources } from './world-data/build-world-data.js';
import { WORLD_NOT_FOUND, type WorldRow } from './worlds.service.js';

/** The home page promises updates every minute from the website. */
export const WORLD_DATA_FRESH_MS = 60_000;

/** Everything a world's document is built from, read from Discord, VRChat and the database. */
async function gatherSources(ctx: AppContext, world: WorldRow): Promise<WorldDataSources> {
  const guild = await ctx.discord.getGuild(world.guildId);
  if (!guild) throw notFound(BOT_NOT_IN_GUILD);
  // Only ownership-verified links: worlds trust display names, and an unproven link could name anyone.
  const members = await linkedMembersOf(ctx, world.guildId, { verifiedOnly: true });
  const vrchatGuests = await ctx.db
    .select({ vrcDisplayName: guests.guestVrcName, guestRoleId: guests.guestRoleId })
    .from(guests)
    .where(
      and(
        eq(guests.guildId, world.guildId),
        isNull(guests.guestDiscordId),
        isNotNull(guests.guestVrcName),
        // Being removed: gone already.
        ne(guests.state, 'removing'),
      ),
    );
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
    atlas: null,
  };
}

async function groupSources(ctx: AppContext, guildId: string) {
  const groupId = await linkedGroupId(ctx, guildId);
  if (!groupId) return { roles: [], members: [] };
  const [roles, { members }] = await Promise.all([
    ctx.vrchat.getGroupRoles(groupId),
    ctx.vrchat.listGroupMembers(groupId),
  ]);
  return {
    roles: roles.map(({ id, name, order }) => ({ id, name, order })),
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
    if (err instanceof WorldDataError) throw badRequest(err.message);
    throw err;
  }
}

export async function previewWorldData(ctx: AppContext, actor: Actor, guildId: string, worldId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'WorldPreview');
  const [world] = await ctx.db
    .select()
    .from(worlds)
    .where(and(eq(worlds.guildId, guildId), eq(worlds.id, worldId)));
  if (!world) throw notFound(WORLD_NOT_FOUND);
  return worldDocument(ctx, world);
}

const building = new Map<string, Promise<string>>();

/**
 * The body a world downloads: rebuilt at most once a minute (and at once after a settings change), one
 * build at a time per world; when a platform is down the last body is served rather than nothing.
 */
export async function worldDataBody(ctx: AppContext, worldId: string): Promise<string> {
  const [row] = await ctx.db
    .select({ world: worlds, cache: worldDataCache })
    .from(worlds)
    .leftJoin(worldDataCache, eq(worldDataCache.worldId, worlds.id))
    .where(eq(worlds.id, worldId));
  if (!row) throw notFound(WORLD_NOT_FOUND);
  const { world, cache } = row;
  const stamp = world.updatedAt.toISOString();
  if (
    cache &&
    cache.settingsStamp === stamp &&
    Date.now() - cache.generatedAt.getTime() < WORLD_DATA_FRESH_MS
  )
    return cache.body;
  try {
    return await buildOnce(ctx, world);
  } catch (err) {
    if (!cache) throw err;
    ctx.log.warn({ err, worldId }, 'world data rebuild failed; serving the last body');
    return cache.body;
  }
}

/** Builds the world's body, joining a build of the same world already running in this process. */
function buildOnce(ctx: AppContext, world: WorldRow): Promise<string> {
  let pending = building.get(world.id);
  if (!pending) {
    pending = rebuild(ctx, world, world.updatedAt.toISOString()).finally(() => building.delete(world.id));
    building.set(world.id, pending);
  }
  return pending;
}

/** Rebuilds a world's body now and stores it (the `worlds.rebuild` scheduled task). */
export async function rebuildWorldData(ctx: AppContext, world: WorldRow): Promise<void> {
  await buildOnce(ctx, world);
}

async function rebuild(ctx: AppContext, world: WorldRow, stamp: string): Promise<string> {
  const body = encodeWorldBody(JSON.stringify(await worldDocument(ctx, world)), world.compression);
  const values = { worldId: world.id, body, settingsStamp: stamp, generatedAt: new Date() };
  await ctx.db
    .insert(worldDataCache)
    .values(values)
    .onConflictDoUpdate({ target: worldDataCache.worldId, set: values })
    // The world may have been deleted meanwhile; the body is still the right answer to this request.
    .catch((err) => ctx.log.warn({ err, worldId: world.id }, 'world data cache not written'));
  return body;
}
