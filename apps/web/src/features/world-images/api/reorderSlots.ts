import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { type ImageSlot, imageSlotsKey, patchCachedSlots } from './imageSlots';

/** Numbers the slots 0, 1, 2… in the order given (spec §4: renumbered from 0). */
export const renumber = (slots: readonly ImageSlot[]): ImageSlot[] =>
  slots.map((slot, order) => ({ ...slot, order }));

/**
 * Stores a new slot order as one batch. The view takes the order at once; the server's answer replaces it,
 * and on failure the slots are read again.
 */
export function useReorderSlots(guildId: string, worldId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ordered: ImageSlot[]) =>
      unwrap(
        api.POST('/api/world_images/{guildId}/{worldId}/slots/batch', {
          params: { path: { guildId, worldId } },
          body: { imageSlots: ordered.map(({ id, order }) => ({ id, order })) },
        }),
      ),
    onMutate: async (ordered) => {
      await queryClient.cancelQueries({ queryKey: imageSlotsKey(guildId, worldId) });
      patchCachedSlots(queryClient, guildId, worldId, () => ordered);
    },
    onSuccess: (slots) => queryClient.setQueryData(imageSlotsKey(guildId, worldId), slots),
    onError: () => queryClient.invalidateQueries({ queryKey: imageSlotsKey(guildId, worldId) }),
  });
}
