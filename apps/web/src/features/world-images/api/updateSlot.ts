import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { type ImageSlot, imageSlotsKey, patchCachedSlots } from './imageSlots';

export type SlotChange = Partial<Pick<ImageSlot, 'imageId' | 'name' | 'maxDimension'>>;

/**
 * Saves a slot (name, image or Max Dimension). The card shows the change at once; the server's answer (with
 * the new image name and size) replaces it, and on failure the slots are read again.
 */
export function useUpdateSlot(guildId: string, worldId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slot, change }: { slot: ImageSlot; change: SlotChange }) => {
      const next = { ...slot, ...change };
      return unwrap(
        api.POST('/api/world_images/{guildId}/{worldId}/{slotId}/slots', {
          params: { path: { guildId, worldId, slotId: slot.slotId } },
          body: {
            imageId: next.imageId,
            name: next.name,
            maxDimension: next.maxDimension,
            slotId: next.slotId,
            order: next.order,
          },
        }),
      );
    },
    onMutate: async ({ slot, change }) => {
      await queryClient.cancelQueries({ queryKey: imageSlotsKey(guildId, worldId) });
      patchCachedSlots(queryClient, guildId, worldId, (slots) =>
        slots.map((s) => (s.id === slot.id ? { ...s, ...change } : s)),
      );
    },
    onSuccess: (saved) =>
      patchCachedSlots(queryClient, guildId, worldId, (slots) =>
        slots.map((s) => (s.id === saved.id ? saved : s)),
      ),
    onError: () => queryClient.invalidateQueries({ queryKey: imageSlotsKey(guildId, worldId) }),
  });
}
