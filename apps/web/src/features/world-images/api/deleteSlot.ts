import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { type ImageSlot, imageSlotsKey, patchCachedSlots } from './imageSlots';

/** Deletes a slot; it leaves the view once the server agreed. */
export function useDeleteSlot(guildId: string, worldId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slot: ImageSlot) =>
      unwrap(
        api.DELETE('/api/world_images/{guildId}/{worldId}/{slotId}/slots', {
          params: { path: { guildId, worldId, slotId: slot.slotId } },
        }),
      ),
    onSuccess: (_, slot) =>
      patchCachedSlots(queryClient, guildId, worldId, (slots) => slots.filter((s) => s.id !== slot.id)),
    onError: () => queryClient.invalidateQueries({ queryKey: imageSlotsKey(guildId, worldId) }),
  });
}
