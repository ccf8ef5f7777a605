import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { imageSlotsRootKey } from './imageSlots';
import { serverImagesKey } from './serverImages';

const deleteImage = (guildId: string, imageId: string) =>
  unwrap(
    api.DELETE('/api/world_images/{guildId}/image/{imageId}', { params: { path: { guildId, imageId } } }),
  );

/** Deletes server images (one, or the selection); slots that showed them are read again. */
export function useDeleteImages(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // One after the other, so a failure leaves the rest of the selection as it was.
    mutationFn: async (imageIds: string[]) => {
      for (const imageId of imageIds) await deleteImage(guildId, imageId);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: serverImagesKey(guildId) }),
        queryClient.invalidateQueries({ queryKey: imageSlotsRootKey(guildId) }),
      ]),
  });
}
