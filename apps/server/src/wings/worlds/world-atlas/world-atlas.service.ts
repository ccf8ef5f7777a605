import { and, eq, inArray, lt, notInArray, or } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { worldAtlasState, worlds } from '../../../db/schema/index.js';
import { type Actor, actorId } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, missing, unavailable } from '../../../kernel/errors.js';
import { ATLAS_STALE_MS, worldsAtlasJob } from '../../../kernel/job-catalog.js';
import { requireGuildPermission } from '../../access/index.js';
import { WORLD_NOT_FOUND } from '../worlds/worlds.service.js';
import { atlasInputsStamp, slotsWithImages } from './atlas-inputs.js';
import { type AtlasStateRow, atlasesOf, atlasImageOf, atlasStateOf } from './world-atlas.reads.js';
import type { AtlasStatus } from './world-atlas.schemas.js';

export const ATLAS_IN_PROGRESS = 'An atlas is already being generated for this world.';
export const ATLAS_NOT_QUEUED = 'The atlas generation could not be queued right now. Try again in a minute.';
export const ATLAS_NOT_FOUND = 'Atlas not found.';
export const ATLAS_RUN_STOPPED = 'The atlas generation stopped before it finished. Generate again.';
/**
 * A generation queued or running for longer than this is taken as dead (its process stopped): it no longer
 * blocks a new one. The job itself expires sooner, so a live run never overlaps the one replacing it.
 */

const isStale = (state: AtlasStateRow, now = Date.now()) =>
  (state.status === 'queued' || state.status === 'running') &&
  (!state.requestedAt || now - state.requestedAt.getTime() > ATLAS_STALE_MS);

/**
 * Whether the current atlases no longer match the slots (an image changed, a slot was added or cleared…):
 * AtlasDetail then points at old rectangles until the next generation. Atlases made before stamps were kept
 * count as out of date (one regeneration gives them a stamp).
 */
export async function atlasOutOfDate(db: Queryable, worldId: string, state: AtlasStateRow | undefined) {
  if (!state?.lastGeneration) return false;
  return atlasInputsStamp(await slotsWithImages(db, worldId)) !== state.sourceStamp;
}

/** The World Atlas dialog's view: current atlases, and the run in progress or the last failure. */
function metadataView(
  worldId: string,
  state: AtlasStateRow | undefined,
  atlases: AtlasRowSize[],
  outOfDate: boolean,
) {
  const stale = state ? isStale(state) : false;
  const variation = state?.variation ?? null;
  return {
    metadata: atlases.map((a) => ({
      atlasIndex: a.atlasIndex,
      width: a.width,
      height: a.height,
      url: `/api/world_images/atlas/${worldId}/${variation}/${a.atlasIndex}`,
    })),
    variation,
    status: (stale ? 'failed' : (state?.status ?? 'idle')) as AtlasStatus,
    progress: state?.progress ?? 0,
    error: stale ? ATLAS_RUN_STOPPED : (state?.error ?? null),
    lastGeneration: state?.lastGeneration?.toISOString() ?? null,
    outOfDate,
  };
}
type AtlasRowSize = { atlasIndex: number; width: number; height: number };

async function worldOf(ctx: AppContext, worldId: string) {
  const [world] = await ctx.db.select().from(worlds).where(eq(worlds.id, worldId));
  if (!world) throw missing(WORLD_NOT_FOUND);
  return world;
}

async function viewOf(ctx: AppContext, worldId: string) {
  const state = await atlasStateOf(ctx.db, worldId);
  const atlases = state?.variation == null ? [] : await atlasesOf(ctx.db, worldId, state.variation);
  return metadataView(worldId, state, atlases, await atlasOutOfDate(ctx.db, worldId, state));
}

/** GET …/atlas/{worldId}/metadata: needs ViewImages in the world's server. */
export async function getAtlasMetadata(ctx: AppContext, actor: Actor, worldId: string) {
  const world = await worldOf(ctx, worldId);
  await requireGuildPermission(ctx, actor, world.guildId, 'ViewImages');
  return viewOf(ctx, worldId);
}

/** One atlas PNG for the dashboard (either variation still stored): needs ViewImages. */
export async function getAtlasImage(
  ctx: AppContext,
  actor: Actor,
  worldId: string,
  variation: number,
  atlasIndex: number,
) {
  const world = await worldOf(ctx, worldId);
  await requireGuildPermission(ctx, actor, world.guildId, 'ViewImages');
  const image = await atlasImageOf(ctx.db, worldId, variation, atlasIndex);
  if (!image) throw missing(ATLAS_NOT_FOUND);
  return image;
}

/**
 * 'Generate': claims the world's one generation (queued) and queues the job. A second click while one is
 * queued or running is a conflict, unless that one went stale (ATLAS_STALE_MS).
 */
export async function requestAtlasGeneration(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  worldId: string,
) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageImages');
  const [world] = await ctx.db
    .select({ id: worlds.id })
    .from(worlds)
    .where(and(eq(worlds.guildId, guildId), eq(worlds.id, worldId)));
  if (!world) throw missing(WORLD_NOT_FOUND);
  await claimAndQueue(ctx, actor, guildId, worldId);
  return viewOf(ctx, worldId);
}

/**
 * Claims the world's one generation (queued) and queues the job, audit-logged as `actor` (a member's
 * 'Generate', or the scheduled regeneration). 409 when one is queued or running and not stale.
 */
export async function claimAndQueue(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  worldId: string,
  details?: Record<string, unknown>,
) {
  const requestedAt = new Date();
  const claim = { status: 'queued', progress: 0, error: null, requestedAt, requestedBy: actorId(actor) };
  // One atomic upsert: two clicks at once cannot both claim the run.
  const claimed = await ctx.db
    .insert(worldAtlasState)
    .values({ worldId, ...claim })
    .onConflictDoUpdate({
      target: worldAtlasState.worldId,
      set: claim,
      setWhere: or(
        notInArray(worldAtlasState.status, ['queued', 'running']),
        lt(worldAtlasState.requestedAt, new Date(requestedAt.getTime() - ATLAS_STALE_MS)),
      ),
    })
    .returning({ worldId: worldAtlasState.worldId });
  if (claimed.length === 0) throw conflict(ATLAS_IN_PROGRESS);

  try {
    // Per world: pg-boss keeps one waiting job per key. Collapsed into one still waiting is fine, as the job
    // runs whatever request the world has queued when it starts.
    await ctx.jobs.send(worldsAtlasJob, { worldId }, { singletonKey: worldId });
  } catch (err) {
    ctx.log.error({ err, worldId }, 'world atlas: could not queue');
    await ctx.db
      .update(worldAtlasState)
      .set({ status: 'failed', error: ATLAS_NOT_QUEUED })
      .where(and(eq(worldAtlasState.worldId, worldId), eq(worldAtlasState.requestedAt, requestedAt)));
    throw unavailable(ATLAS_NOT_QUEUED);
  }
  await audit(ctx.db, { action: 'world.atlas.requested', actor, guildId, targetId: worldId, details });
}

/** Used by the job: is this run still the world's current request (not replaced after going stale)? */
export function currentRun(worldId: string, requestedAt: Date) {
  return and(
    eq(worldAtlasState.worldId, worldId),
    eq(worldAtlasState.requestedAt, requestedAt),
    inArray(worldAtlasState.status, ['queued', 'running']),
  );
}
