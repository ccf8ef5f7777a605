import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { imageSlotsRootKey } from './imageSlots';
import { type ServerImagesResponse, serverImagesKey } from './serverImages';

export type Rotation = 'Clockwise' | 'CounterClockwise';

/** Turns an image a quarter; the answer (new size and hash) replaces it in the list, slots are read again. */
export function useRotateImage(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ imageId, rotation }: { imageId: string; rotation: Rotation }) =>
      unwrap(
        api.POST('/api/world_images/{guildId}/image/{imageId}', {
          params: { path: { guildId, imageId } },
          body: { rotation },
        }),
      ),
    onSuccess: (image) => {
      queryClient.setQueryData<ServerImagesResponse>(
        serverImagesKey(guildId),
        (data) => data && { ...data, images: data.images.map((i) => (i.id === image.id ? image : i)) },
      );
      return queryClient.invalidateQueries({ queryKey: imageSlotsRootKey(guildId) });
    },
  });
}
