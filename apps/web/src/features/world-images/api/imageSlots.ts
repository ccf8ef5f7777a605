import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { ApiError } from '../../../api/errors';

export const imageSlotsRootKey = (guildId: string) => ['world-image-slots', guildId] as const;
export const imageSlotsKey = (guildId: string, worldId: string) =>
  [...imageSlotsRootKey(guildId), worldId] as const;

const fetchImageSlots = (guildId: string, worldId: string) =>
  unwrap(api.GET('/api/world_images/{guildId}/{worldId}/slots', { params: { path: { guildId, worldId } } }));

export type ImageSlotsResponse = Awaited<ReturnType<typeof fetchImageSlots>>;
/** One poster slot of a world. */
export type ImageSlot = ImageSlotsResponse['imageSlots'][number];

export const imageSlotsQuery = (guildId: string, worldId: string) =>
  queryOptions({
    queryKey: imageSlotsKey(guildId, worldId),
    queryFn: () => fetchImageSlots(guildId, worldId),
    // 404: the world is not this server's; asking again changes nothing.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 1,
  });

export function useImageSlots(guildId: string, worldId: string) {
  return useQuery(imageSlotsQuery(guildId, worldId));
}

/** The slots in their drag order. */
export const byOrder = (slots: readonly ImageSlot[]) => [...slots].sort((a, b) => a.order - b.order);

/** Replaces the cached slots of a world (a no-op when they are not cached). */
export function patchCachedSlots(
  queryClient: QueryClient,
  guildId: string,
  worldId: string,
  patch: (slots: ImageSlot[]) => ImageSlot[],
): void {
  queryClient.setQueryData<ImageSlotsResponse>(
    imageSlotsKey(guildId, worldId),
    (data) => data && { ...data, imageSlots: patch(data.imageSlots) },
  );
}
