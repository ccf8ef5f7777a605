/** The Max Dimension choices of a slot (spec §9); the server's list is the same. */
export const SLOT_MAX_DIMENSIONS = [128, 256, 384, 512, 768, 1024, 1536, 2048] as const;
export const DEFAULT_SLOT_MAX_DIMENSION = 512;

export const maxDimensionOptions = SLOT_MAX_DIMENSIONS.map((size) => ({
  value: String(size),
  label: `${size} px`,
}));
