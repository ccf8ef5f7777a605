import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { worldAtlases, worldAtlasState } from '../../../db/schema/index.js';
import type { WorldDataSources } from '../worlds/world-data/build-world-data.js';

export type AtlasStateRow = typeof worldAtlasState.$inferSelect;

export async function atlasStateOf(db: Queryable, worldId: string): Promise<AtlasStateRow | undefined> {
  const [row] = await db.select().from(worldAtlasState).where(eq(worldAtlasState.worldId, worldId));
  return row;
}

/**
 * The AtlasDetail a world's data carries: the current variation's rectangles; null before the first
 * generation (the document then has no AtlasDetail).
 */
export async function atlasDetailOf(db: Queryable, worldId: string): Promise<WorldDataSources['atlas']> {
  const state = await atlasStateOf(db, worldId);
  if (!state || state.variation === null || !state.lastGeneration) return null;
  return {
    metaData: state.metadata.map((r) => ({
      slotId: r.SlotId,
      atlasIndex: r.AtlasIndex,
      x: r.X,
      y: r.Y,
      width: r.Width,
      height: r.Height,
    })),
    lastGeneration: state.lastGeneration.toISOString(),
    variation: state.variation === 1 ? 1 : 0,
  };
}

/** A stored atlas image (either variation: the previous one stays served until the next generation). */
export async function atlasImageOf(db: Queryable, worldId: string, variation: number, atlasIndex: number) {
  const [row] = await db
    .select({ bytes: worldAtlases.bytes, hash: worldAtlases.hash })
    .from(worldAtlases)
    .where(
      and(
        eq(worldAtlases.worldId, worldId),
        eq(worldAtlases.variation, variation),
        eq(worldAtlases.atlasIndex, atlasIndex),
      ),
    );
  return row;
}

/** The atlases of one variation, without their bytes, by index. */
export function atlasesOf(db: Queryable, worldId: string, variation: number) {
  return db
    .select({ atlasIndex: worldAtlases.atlasIndex, width: worldAtlases.width, height: worldAtlases.height })
    .from(worldAtlases)
    .where(and(eq(worldAtlases.worldId, worldId), eq(worldAtlases.variation, variation)))
    .orderBy(worldAtlases.atlasIndex);
}
