/** The Max Dimension choices of a slot (spec admin-area §9); 512 when none is chosen. */
export const SLOT_MAX_DIMENSIONS = [128, 256, 384, 512, 768, 1024, 1536, 2048] as const;
export type SlotMaxDimension = (typeof SLOT_MAX_DIMENSIONS)[number];
export const DEFAULT_SLOT_MAX_DIMENSION: SlotMaxDimension = 512;

/**
 * The size a slot's image takes in the atlas: its longer side at most `maxDimension`, aspect ratio kept, never
 * enlarged (the world SDK: "scaled so that its longer side is at most the slot's Max Dimension"). Integers, ≥ 1.
 * Slot cards show this size and the atlas packer uses it, so both always agree.
 */
export function slotSize(
  width: number,
  height: number,
  maxDimension: number,
): { width: number; height: number } {
  const scale = Math.min(1, maxDimension / Math.max(width, height));
  return {
    width: Math.max(1, Math.min(maxDimension, Math.round(width * scale))),
    height: Math.max(1, Math.min(maxDimension, Math.round(height * scale))),
  };
}
