/// <reference path="./maxrects-packer.d.ts" />
import { MaxRectsPacker, PACKING_LOGIC } from 'maxrects-packer/dist/maxrects-packer.mjs';

/** The largest atlas image (world SDK: "PNG, at most 2048×2048"). */
export const ATLAS_MAX_SIZE = 2048;
/**
 * No gap between posters: the Max Dimension choices tile 2048 exactly (16 default 512² posters in one atlas,
 * 9 with a 2 px gap), and a world bakes in only 25 atlas addresses per variation, so atlases count more than
 * the half-texel bleed a gap would guard against (a world samples inside its rectangle).
 */
export const ATLAS_PADDING = 0;

export interface AtlasInput {
  slotId: number;
  /** The slot's scaled image size (slotSize), 1…2048. */
  width: number;
  height: number;
}

/** One slot's place, as AtlasDetail.MetaData carries it: pixels, origin top-left. */
export interface AtlasRect {
  SlotId: number;
  AtlasIndex: number;
  X: number;
  Y: number;
  Width: number;
  Height: number;
}

export interface PackedAtlases {
  /** Each atlas's image size: the smallest that holds its rectangles (not padded to a power of two). */
  atlases: { atlasIndex: number; width: number; height: number }[];
  /** Ordered by atlas, then slot id. */
  rects: AtlasRect[];
}

interface Box {
  width: number;
  height: number;
  x: number;
  y: number;
  data: number;
}

/** Packs with one of maxrects' placement rules: the boxes per bin (images are never rotated). */
function packWith(inputs: AtlasInput[], logic: PACKING_LOGIC): Box[][] {
  const packer = new MaxRectsPacker<Box>(ATLAS_MAX_SIZE, ATLAS_MAX_SIZE, ATLAS_PADDING, {
    smart: true,
    pot: false,
    square: false,
    allowRotation: false,
    logic,
  });
  packer.addArray(inputs.map((i) => ({ width: i.width, height: i.height, x: 0, y: 0, data: i.slotId })));
  return packer.bins.map((bin) => bin.rects);
}

const extent = (boxes: Box[]) => ({
  width: Math.max(...boxes.map((b) => b.x + b.width)),
  height: Math.max(...boxes.map((b) => b.y + b.height)),
});
const area = (bins: Box[][]) =>
  bins.reduce((sum, bin) => {
    const { width, height } = extent(bin);
    return sum + width * height;
  }, 0);

/**
 * Places every slot's image in as few atlases (≤ 2048×2048) as maxrects finds: both of its placement rules
 * are tried and the one needing fewer atlases (then fewer pixels) wins. Pure; throws on a size outside 1…2048.
 */
export function packAtlas(inputs: AtlasInput[]): PackedAtlases {
  for (const i of inputs) {
    const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= ATLAS_MAX_SIZE;
    if (!ok(i.width) || !ok(i.height))
      throw new RangeError(
        `Slot ${i.slotId} is ${i.width}×${i.height}; each side must be 1 to ${ATLAS_MAX_SIZE}.`,
      );
  }
  if (inputs.length === 0) return { atlases: [], rects: [] };
  const candidates = [PACKING_LOGIC.MAX_EDGE, PACKING_LOGIC.MAX_AREA].map((logic) => packWith(inputs, logic));
  const best = candidates.reduce((a, b) =>
    b.length < a.length || (b.length === a.length && area(b) < area(a)) ? b : a,
  );
  return {
    atlases: best.map((bin, atlasIndex) => ({ atlasIndex, ...extent(bin) })),
    rects: best.flatMap((bin, atlasIndex) =>
      bin
        .map((b) => ({
          SlotId: b.data,
          AtlasIndex: atlasIndex,
          X: b.x,
          Y: b.y,
          Width: b.width,
          Height: b.height,
        }))
        .sort((a, b) => a.SlotId - b.SlotId),
    ),
  };
}
