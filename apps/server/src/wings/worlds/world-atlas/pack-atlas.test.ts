import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATLAS_MAX_SIZE, type AtlasInput, packAtlas } from './pack-atlas.js';

const side = fc.oneof(
  fc.integer({ min: 1, max: ATLAS_MAX_SIZE }),
  // The Max Dimension choices, the sizes most slots have.
  fc.constantFrom(128, 256, 384, 512, 768, 1024, 1536, 2048),
  fc.integer({ min: 1, max: 300 }),
);
/** Slots with distinct ids and any size an atlas can hold. */
const slots = fc
  .array(fc.record({ width: side, height: side }), { maxLength: 40 })
  .map((sizes) => sizes.map((s, i): AtlasInput => ({ slotId: i * 3 + 1, ...s })));

const overlaps = (
  a: { X: number; Y: number; Width: number; Height: number },
  b: { X: number; Y: number; Width: number; Height: number },
) => a.X < b.X + b.Width && b.X < a.X + a.Width && a.Y < b.Y + b.Height && b.Y < a.Y + a.Height;

describe('packAtlas', () => {
  it('places every slot exactly once, at its own size', () => {
    fc.assert(
      fc.property(slots, (input) => {
        const { rects } = packAtlas(input);
        expect(rects.map((r) => r.SlotId).sort((a, b) => a - b)).toEqual(input.map((i) => i.slotId));
        for (const i of input) {
          const r = rects.find((rect) => rect.SlotId === i.slotId);
          expect([r?.Width, r?.Height]).toEqual([i.width, i.height]);
        }
      }),
    );
  });

  it('keeps every rectangle inside its atlas, in non-negative integers, atlases at most 2048×2048', () => {
    fc.assert(
      fc.property(slots, (input) => {
        const { atlases, rects } = packAtlas(input);
        expect(atlases.map((a) => a.atlasIndex)).toEqual(atlases.map((_, i) => i));
        for (const a of atlases) {
          expect(a.width).toBeLessThanOrEqual(ATLAS_MAX_SIZE);
          expect(a.height).toBeLessThanOrEqual(ATLAS_MAX_SIZE);
          const own = rects.filter((r) => r.AtlasIndex === a.atlasIndex);
          // The smallest size holding its rectangles: something touches the right and the bottom edge.
          expect(Math.max(...own.map((r) => r.X + r.Width))).toBe(a.width);
          expect(Math.max(...own.map((r) => r.Y + r.Height))).toBe(a.height);
        }
        for (const r of rects) {
          for (const n of [r.X, r.Y, r.Width, r.Height, r.AtlasIndex]) {
            expect(Number.isInteger(n)).toBe(true);
            expect(n).toBeGreaterThanOrEqual(0);
          }
          const atlas = atlases[r.AtlasIndex];
          expect(r.X + r.Width).toBeLessThanOrEqual(atlas.width);
          expect(r.Y + r.Height).toBeLessThanOrEqual(atlas.height);
        }
      }),
    );
  });

  it('never overlaps two rectangles of the same atlas', () => {
    fc.assert(
      fc.property(slots, (input) => {
        const { rects } = packAtlas(input);
        for (const a of rects)
          for (const b of rects)
            if (a !== b && a.AtlasIndex === b.AtlasIndex)
              expect(overlaps(a, b), JSON.stringify([a, b])).toBe(false);
      }),
    );
  });

  it('uses one atlas when everything fits side by side in one', () => {
    const row = fc
      .array(fc.record({ width: fc.integer({ min: 1, max: 400 }), height: side }), {
        minLength: 1,
        maxLength: 20,
      })
      .filter((sizes) => sizes.reduce((sum, s) => sum + s.width, 0) <= ATLAS_MAX_SIZE)
      .map((sizes) => sizes.map((s, i): AtlasInput => ({ slotId: i, ...s })));
    fc.assert(
      fc.property(row, (input) => {
        expect(packAtlas(input).atlases).toHaveLength(1);
      }),
    );
  });

  it('tiles sixteen default 512² posters into one full atlas and starts a second for the seventeenth', () => {
    const posters = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ slotId: i, width: 512, height: 512 }));
    expect(packAtlas(posters(16)).atlases).toEqual([{ atlasIndex: 0, width: 2048, height: 2048 }]);
    expect(packAtlas(posters(17)).atlases).toHaveLength(2);
    expect(packAtlas([{ slotId: 1, width: 300, height: 200 }])).toEqual({
      atlases: [{ atlasIndex: 0, width: 300, height: 200 }],
      rects: [{ SlotId: 1, AtlasIndex: 0, X: 0, Y: 0, Width: 300, Height: 200 }],
    });
  });

  it('packs nothing into no atlas, and refuses a size no atlas can hold', () => {
    expect(packAtlas([])).toEqual({ atlases: [], rects: [] });
    expect(() => packAtlas([{ slotId: 1, width: 2049, height: 10 }])).toThrow(RangeError);
    expect(() => packAtlas([{ slotId: 1, width: 0, height: 10 }])).toThrow(RangeError);
  });
});
