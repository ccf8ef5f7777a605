import { createHash } from 'node:crypto';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { worldImageSlots, worldImages } from '../../../db/schema/index.js';

export interface AtlasSlotInput {
  slotId: number;
  maxDimension: number;
  hash: string;
  width: number;
  height: number;
}

/** What an atlas is made of: the slots that have an image, with the image's stored size, in the manager's order. */
export function slotsWithImages(db: Queryable, worldId: string): Promise<AtlasSlotInput[]> {
  return db
    .select({
      slotId: worldImageSlots.slotId,
      maxDimension: worldImageSlots.maxDimension,
      hash: worldImages.imageHash,
      width: worldImages.width,
      height: worldImages.height,
    })
    .from(worldImageSlots)
    .innerJoin(worldImages, eq(worldImages.id, worldImageSlots.imageId))
    .where(and(eq(worldImageSlots.worldId, worldId), isNotNull(worldImageSlots.imageId)))
    .orderBy(asc(worldImageSlots.order), asc(worldImageSlots.slotId));
}

/**
 * A stamp of those inputs: equal stamps make the same atlases. Another image in a slot, the image turned, a
 * Max Dimension, a slot added, cleared, deleted or moved all change it.
 */
export function atlasInputsStamp(slots: readonly AtlasSlotInput[]): string {
  const parts = slots.map((s) => [s.slotId, s.maxDimension, s.hash, s.width, s.height]);
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
