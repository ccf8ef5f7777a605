import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { imageSlotsKey } from './imageSlots';

/** 'Add slot': the server answers the world's slots with the new one. */
export function useCreateSlot(guildId: string, worldId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/world_images/{guildId}/{worldId}/slots', { params: { path: { guildId, worldId } } }),
      ),
    onSuccess: (slots) => queryClient.setQueryData(imageSlotsKey(guildId, worldId), slots),
  });
}
