import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { worldAtlases, worldAtlasState, worlds } from '../../../db/schema/index.js';
import { jobActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { worldsAtlasJob } from '../../../kernel/job-catalog.js';
import { blobBytes } from '../world-images/image-store.js';
import { slotSize } from '../world-images/slot-size.js';
import { worldDataChanged } from '../worlds/world-data.service.js';
import { atlasInputsStamp, slotsWithImages } from './atlas-inputs.js';
import { type AtlasInput, type AtlasRect, packAtlas } from './pack-atlas.js';
import { atlasStateOf } from './world-atlas.reads.js';
import { currentRun } from './world-atlas.service.js';

/** A failure the manager can act on; its message is shown as 'Error generating atlas'. */
class AtlasFailure extends Error {}
/** This run was replaced (it went stale and a new request claimed the world). */
class Superseded extends Error {}

const ATLAS_FAILED = 'The atlas could not be generated. Try again in a minute.';
const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

async function scaledImage(ctx: AppContext, slotId: number, hash: string, size: AtlasInput) {
  const bytes = await blobBytes(ctx.db, ctx.database.fileDir, hash);
  if (!bytes) throw new AtlasFailure(`The image of slot ${slotId} is missing. Choose its image again.`);
  try {
    // Exactly the packed size: slotSize already fits it inside Max Dimension without enlarging.
    return await sharp(bytes, { pages: 1, limitInputPixels: false })
      .resize(size.width, size.height, { fit: 'fill' })
      .png()
      .toBuffer();
  } catch (err) {
    ctx.log.warn({ err, slotId, hash }, 'world atlas: slot image not readable');
    throw new AtlasFailure(`The image of slot ${slotId} could not be read. Choose another image for it.`);
  }
}

/**
 * The `worlds.atlas` job: takes the world's queued request (queued → running, atomically, so two jobs of one
 * world never both run it) and generates it. Nothing queued (already taken, or the world is gone): nothing to do.
 */
export async function generateQueuedAtlas(ctx: AppContext, worldId: string): Promise<void> {
  const [taken] = await ctx.db
    .update(worldAtlasState)
    .set({ status: 'running', progress: 0 })
    .where(and(eq(worldAtlasState.worldId, worldId), eq(worldAtlasState.status, 'queued')))
    .returning();
  if (!taken?.requestedAt) return;
  await runGeneration(ctx, worldId, taken.requestedAt);
}

/**
 * One generation: scale each slot's image, pack, compose the PNGs, store them as the other variation, then
 * switch the world's AtlasDetail to them in one transaction. `requestedAt` identifies the request: once a
 * stale run is replaced by a new request, it no longer writes anything.
 */
export async function runGeneration(ctx: AppContext, worldId: string, requestedAt: Date): Promise<void> {
  const [world] = await ctx.db.select({ guildId: worlds.guildId }).from(worlds).where(eq(worlds.id, worldId));
  const state = await atlasStateOf(ctx.db, worldId);
  if (!world || !state) return;
  /** Reports progress; a run that is no longer the world's stops here instead of working on. */
  const setProgress = async (progress: number) => {
    const rows = await ctx.db
      .update(worldAtlasState)
      .set({ status: 'running', progress })
      .where(currentRun(worldId, requestedAt))
      .returning({ worldId: worldAtlasState.worldId });
    if (rows.length === 0) throw new Superseded();
  };

  const variation = state.variation === 0 ? 1 : 0;
  try {
    await setProgress(0);
    const slots = await slotsWithImages(ctx.db, worldId);
    const inputs = slots.map((s) => ({ slotId: s.slotId, ...slotSize(s.width, s.height, s.maxDimension) }));
    const packed = packAtlas(inputs);
    const rectsOf = (atlasIndex: number) => packed.rects.filter((r) => r.AtlasIndex === atlasIndex);

    const pngs: Buffer[] = [];
    let done = 0;
    for (const atlas of packed.atlases) {
      const layers = [];
      for (const rect of rectsOf(atlas.atlasIndex)) {
        const slot = slots.find((s) => s.slotId === rect.SlotId)!;
        layers.push({
          input: await scaledImage(ctx, rect.SlotId, slot.hash, inputOf(rect)),
          left: rect.X,
          top: rect.Y,
        });
        done += 1;
        await setProgress(Math.floor((done / slots.length) * 80));
      }
      pngs.push(
        await sharp({
          create: { width: atlas.width, height: atlas.height, channels: 4, background: TRANSPARENT },
        })
          .composite(layers)
          .png()
          .toBuffer(),
      );
    }
    await setProgress(90);

    const lastGeneration = new Date();
    await ctx.db.transaction(async (tx) => {
      const rows = await tx
        .update(worldAtlasState)
        .set({
          variation,
          metadata: packed.rects,
          lastGeneration,
          status: 'idle',
          progress: 100,
          error: null,
          sourceStamp: atlasInputsStamp(slots),
        })
        .where(currentRun(worldId, requestedAt))
        .returning();
      if (rows.length === 0) throw new Superseded();
      // The variation two generations back gives way; the current one stays served.
      await tx
        .delete(worldAtlases)
        .where(and(eq(worldAtlases.worldId, worldId), eq(worldAtlases.variation, variation)));
      for (const [atlasIndex, bytes] of pngs.entries()) {
        const { width, height } = packed.atlases[atlasIndex];
        const hash = createHash('sha256').update(bytes).digest('hex');
        await tx.insert(worldAtlases).values({ worldId, variation, atlasIndex, width, height, hash, bytes });
      }
      // The world data cache rebuilds when the world's stamp changes.
      await tx.update(worlds).set({ updatedAt: lastGeneration }).where(eq(worlds.id, worldId));
    });
    // This process's bodies follow at once (a download right after the run gets the new AtlasDetail); other
    // processes hear the worlds row's NOTIFY.
    worldDataChanged(ctx, worldId);
    await audit(ctx.db, {
      action: 'world.atlas.generated',
      actor: jobActor(worldsAtlasJob.name),
      guildId: world.guildId,
      targetId: worldId,
      details: { variation, atlases: pngs.length, slots: packed.rects.length },
    });
  } catch (err) {
    // Replaced by a newer request after going stale: that run owns the state now.
    if (err instanceof Superseded) return;
    const error = err instanceof AtlasFailure ? err.message : ATLAS_FAILED;
    if (!(err instanceof AtlasFailure)) ctx.log.error({ err, worldId }, 'world atlas: generation failed');
    const failed = await ctx.db
      .update(worldAtlasState)
      .set({ status: 'failed', error })
      .where(currentRun(worldId, requestedAt))
      .returning({ worldId: worldAtlasState.worldId });
    if (failed.length === 0) return;
    await audit(ctx.db, {
      action: 'world.atlas.failed',
      actor: jobActor(worldsAtlasJob.name),
      guildId: world.guildId,
      targetId: worldId,
      details: { error },
    });
  }
}

const inputOf = (rect: AtlasRect): AtlasInput => ({
  slotId: rect.SlotId,
  width: rect.Width,
  height: rect.Height,
});
