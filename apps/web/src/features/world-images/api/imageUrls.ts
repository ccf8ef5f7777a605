/**
 * Image addresses (spec §7). The content hash is added so a rotated image (new bytes, same id) is not taken
 * from the browser's cache.
 */
export const imageUrl = (guildId: string, imageId: string, imageHash: string) =>
  `/api/world_images/${guildId}/image/${imageId}?v=${imageHash}`;

export const imagePreviewUrl = (guildId: string, imageId: string, imageHash: string) =>
  `/api/world_images/${guildId}/image/${imageId}/preview?v=${imageHash}`;

export const slotPreviewUrl = (guildId: string, worldId: string, slotId: number, imageHash: string) =>
  `/api/world_images/slot_image/${guildId}/${worldId}/${slotId}/preview?v=${imageHash}`;

export const atlasImageUrl = (worldId: string, variation: number, atlasIndex: number) =>
  `/api/world_images/atlas/${worldId}/${variation}/${atlasIndex}`;
