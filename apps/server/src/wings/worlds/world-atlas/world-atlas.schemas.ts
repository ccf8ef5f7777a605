import { z } from 'zod';
import { snowflake } from '../../../http/params.js';

export const generateParams = z.object({ guildId: snowflake, worldId: z.uuid() });
export const worldIdParams = z.object({ worldId: z.uuid() });
export const atlasImageParams = z.object({
  worldId: z.uuid(),
  variation: z.coerce.number().int().min(0).max(1),
  atlasIndex: z.coerce.number().int().min(0).max(1000),
});

export const atlasStatusValues = ['idle', 'queued', 'running', 'failed'] as const;
export type AtlasStatus = (typeof atlasStatusValues)[number];

/** The World Atlas dialog: the current atlases and the generation in progress or last failed. */
export const atlasMetadata = z.object({
  metadata: z.array(
    z.object({
      atlasIndex: z.number().int(),
      width: z.number().int(),
      height: z.number().int(),
      /** The PNG, for the signed-in viewer (GET /api/world_images/atlas/{worldId}/{variation}/{atlasIndex}). */
      url: z.string(),
    }),
  ),
  /** The variation the world data points at; null before the first generation. */
  variation: z.number().int().nullable(),
  /** 'failed' also when a run stopped (its process died) and may be started again. */
  status: z.enum(atlasStatusValues),
  /** 0–100 while queued or running. */
  progress: z.number().int(),
  /** Why the last generation failed, as a sentence; null otherwise. */
  error: z.string().nullable(),
  /** When the current atlases were generated (ISO time); null before the first generation. */
  lastGeneration: z.string().nullable(),
  /**
   * The slots changed since the current atlases were generated (another image, a turn, a Max Dimension, a
   * slot added or cleared): the world still shows the old ones until the next generation, which the
   * scheduled regeneration makes within minutes.
   */
  outOfDate: z.boolean(),
});
z.globalRegistry.add(atlasMetadata, { id: 'AtlasMetadata' });
