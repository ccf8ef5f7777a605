import { and, asc, count, eq, inArray, max, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { worldImageSlots, worldImages, worlds } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, invalid, missing } from '../../../kernel/errors.js';
import { deleteAudited } from '../../../kernel/rows.js';
import { requireGuildPermission } from '../../access/index.js';
import { WORLD_NOT_FOUND } from '../worlds/worlds.service.js';
import { PREVIEW_SIZE } from './image-content.js';
import { isForeignKeyViolation } from './image-store.js';
import { DEFAULT_SLOT_MAX_DIMENSION, slotSize } from './slot-size.js';
import { type ImageSlotUpdate, MAX_SLOTS_PER_WORLD } from './world-images.schemas.js';
import { IMAGE_NOT_FOUND, type ImageAnswer, scaledAnswer } from './world-images.service.js';

export const SLOT_NOT_FOUND = 'Image slot not found.';
export const SLOT_HAS_NO_IMAGE = 'This slot has no image.';
export const SLOT_ID_MISMATCH = 'The slot ID in the body must match the one in the address.';
export const SLOT_LISTED_TWICE = 'Each slot may appear only once.';
export const TOO_MANY_SLOTS = `A world can have at most ${MAX_SLOTS_PER_WORLD} image slots.`;

type SlotRow = typeof worldImageSlots.$inferSelect;
type SlotImage = { name: string; imageHash: string; width: number; height: number } | null;

/** A slot as the screen shows it: width and height are the atlas size (slotSize), null with no image. */
export function toImageSlot(slot: SlotRow, image: SlotImage) {
  const size = image ? slotSize(image.width, image.height, slot.maxDimension) : null;
  return {
    id: slot.id,
    slotId: slot.slotId,
    worldId: slot.worldId,
    name: slot.name,
    imageId: image ? slot.imageId : null,
    imageName: image?.name ?? null,
    imageHash: image?.imageHash ?? null,
    maxDimension: slot.maxDimension,
    width: size?.width ?? null,
    height: size?.height ?? null,
    order: slot.order,
  };
}

/** A world of this server, or 404 WORLD_NOT_FOUND (another server's world is not found either). */
async function requireWorld(ctx: AppContext, guildId: string, worldId: string): Promise<void> {
  const [row] = await ctx.db
    .select({ id: worlds.id })
    .from(worlds)
    .where(and(eq(worlds.guildId, guildId), eq(worlds.id, worldId)));
  if (!row) throw missing(WORLD_NOT_FOUND);
}

const slotColumns = {
  slot: worldImageSlots,
  image: {
    name: worldImages.name,
    imageHash: worldImages.imageHash,
    width: worldImages.width,
    height: worldImages.height,
  },
};

async function slotsOf(db: Queryable, worldId: string) {
  const rows = await db
    .select(slotColumns)
    .from(worldImageSlots)
    .leftJoin(worldImages, eq(worldImages.id, worldImageSlots.imageId))
    .where(eq(worldImageSlots.worldId, worldId))
    .orderBy(asc(worldImageSlots.order), asc(worldImageSlots.slotId));
  return { imageSlots: rows.map((r) => toImageSlot(r.slot, r.image)) };
}

async function findSlot(db: Queryable, worldId: string, slotId: number) {
  const [row] = await db
    .select(slotColumns)
    .from(worldImageSlots)
    .leftJoin(worldImages, eq(worldImages.id, worldImageSlots.imageId))
    .where(and(eq(worldImageSlots.worldId, worldId), eq(worldImageSlots.slotId, slotId)));
  if (!row) throw missing(SLOT_NOT_FOUND);
  return row;
}

export async function listSlots(ctx: AppContext, actor: Actor, guildId: string, worldId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ViewImages');
  await requireWorld(ctx, guildId, worldId);
  return slotsOf(ctx.db, worldId);
}

/** A new empty slot: the next Slot ID (0 first; numbers are never reused while higher ones exist), last in order. */
export async function createSlot(ctx: AppContext, actor: Actor, guildId: string, worldId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageImages');
  await requireWorld(ctx, guildId, worldId);
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`world_image_slots:${worldId}`}))`);
    const [stats] = await tx
      .select({ n: count(), maxSlot: max(worldImageSlots.slotId), maxOrder: max(worldImageSlots.order) })
      .from(worldImageSlots)
      .where(eq(worldImageSlots.worldId, worldId));
    if (stats.n >= MAX_SLOTS_PER_WORLD) throw conflict(TOO_MANY_SLOTS);
    const [row] = await tx
      .insert(worldImageSlots)
      .values({
        worldId,
        slotId: stats.maxSlot === null ? 0 : stats.maxSlot + 1,
        name: '',
        maxDimension: DEFAULT_SLOT_MAX_DIMENSION,
        order: stats.maxOrder === null ? 0 : stats.maxOrder + 1,
      })
      .returning();
    await audit(tx, {
      action: 'world_image_slot.create',
      actor,
      guildId,
      targetId: worldId,
      details: { slotId: row.slotId },
    });
  });
  return slotsOf(ctx.db, worldId);
}

/** Changes a slot's image (null clears it), name, Max Dimension or order; fields left out stay. */
export async function updateSlot(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  worldId: string,
  slotId: number,
  change: ImageSlotUpdate,
) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageImages');
  if (change.slotId !== slotId) throw invalid(SLOT_ID_MISMATCH);
  await requireWorld(ctx, guildId, worldId);
  const before = (await findSlot(ctx.db, worldId, slotId)).slot;
  if (change.imageId) {
    const [image] = await ctx.db
      .select({ id: worldImages.id })
      .from(worldImages)
      .where(and(eq(worldImages.guildId, guildId), eq(worldImages.id, change.imageId)));
    if (!image) throw missing(IMAGE_NOT_FOUND);
  }
  const set = {
    ...(change.imageId !== undefined && { imageId: change.imageId }),
    ...(change.name !== undefined && { name: change.name }),
    ...(change.maxDimension !== undefined && { maxDimension: change.maxDimension }),
    ...(change.order !== undefined && { order: change.order }),
  };
  const changed = Object.fromEntries(
    Object.entries(set).filter(([key, value]) => before[key as keyof typeof set] !== value),
  );
  if (Object.keys(changed).length === 0) {
    const same = await findSlot(ctx.db, worldId, slotId);
    return toImageSlot(same.slot, same.image);
  }
  try {
    return await ctx.db.transaction(async (tx) => {
      await tx
        .update(worldImageSlots)
        .set({ ...changed, updatedAt: new Date() })
        .where(eq(worldImageSlots.id, before.id));
      await audit(tx, {
        action: 'world_image_slot.update',
        actor,
        guildId,
        targetId: worldId,
        details: { slotId, ...changed },
      });
      const after = await findSlot(tx, worldId, slotId);
      return toImageSlot(after.slot, after.image);
    });
  } catch (err) {
    // The image was deleted since it was checked.
    if (isForeignKeyViolation(err)) throw missing(IMAGE_NOT_FOUND);
    throw err;
  }
}

export async function deleteSlot(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  worldId: string,
  slotId: number,
) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageImages');
  await requireWorld(ctx, guildId, worldId);
  const where = and(eq(worldImageSlots.worldId, worldId), eq(worldImageSlots.slotId, slotId));
  const removed = await deleteAudited(ctx.db, worldImageSlots, where, (row) => ({
    action: 'world_image_slot.delete',
    actor,
    guildId,
    targetId: worldId,
    details: { slotId, name: row.name, imageId: row.imageId },
  }));
  if (!removed) throw missing(SLOT_NOT_FOUND);
}

/** The drag order: every listed slot gets its order in one transaction; all must be slots of this world. */
export async function reorderSlots(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  worldId: string,
  entries: { id: string; order: number }[],
) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageImages');
  await requireWorld(ctx, guildId, worldId);
  const ids = entries.map((e) => e.id);
  if (new Set(ids).size !== ids.length) throw invalid(SLOT_LISTED_TWICE);
  if (ids.length === 0) return slotsOf(ctx.db, worldId);
  await ctx.db.transaction(async (tx) => {
    const found = await tx
      .select({ id: worldImageSlots.id })
      .from(worldImageSlots)
      .where(and(eq(worldImageSlots.worldId, worldId), inArray(worldImageSlots.id, ids)));
    if (found.length !== ids.length) throw missing(SLOT_NOT_FOUND);
    for (const entry of entries) {
      await tx
        .update(worldImageSlots)
        .set({ order: entry.order, updatedAt: new Date() })
        .where(eq(worldImageSlots.id, entry.id));
    }
    await audit(tx, {
      action: 'world_image_slot.reorder',
      actor,
      guildId,
      targetId: worldId,
      details: { order: entries },
    });
  });
  return slotsOf(ctx.db, worldId);
}

/** The slot's image at its slot size (what the atlas holds), or its preview (longest side at most 256). */
export async function slotImage(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  worldId: string,
  slotId: number,
  preview: boolean,
): Promise<ImageAnswer> {
  await requireGuildPermission(ctx, actor, guildId, 'ViewImages');
  await requireWorld(ctx, guildId, worldId);
  const { slot, image } = await findSlot(ctx.db, worldId, slotId);
  if (!image) throw missing(SLOT_HAS_NO_IMAGE);
  const limit = preview ? Math.min(PREVIEW_SIZE, slot.maxDimension) : slot.maxDimension;
  const answer = scaledAnswer(
    ctx,
    { hash: image.imageHash, width: image.width, height: image.height },
    limit,
  );
  // The slot's own version: its image and Max Dimension decide both pictures.
  return { ...answer, version: `${image.imageHash}-${slot.maxDimension}` };
}
