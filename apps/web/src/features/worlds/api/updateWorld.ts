import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { operations } from '../../../api/schema';
import { patchCachedWorld, storeWorld, worldsKey } from './worlds';

export type WorldChange = operations['updateWorld']['requestBody']['content']['application/json'];

/**
 * Saves some settings of a world. The list shows the change at once; the server's answer replaces it,
 * and on failure the list is read again so the view shows what is really stored.
 */
export function useUpdateWorld(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ worldId, change }: { worldId: string; change: WorldChange }) =>
      unwrap(
        api.POST('/api/guilds/{guildId}/worlds/{worldId}', {
          params: { path: { guildId, worldId } },
          body: change,
        }),
      ),
    onMutate: async ({ worldId, change }) => {
      await queryClient.cancelQueries({ queryKey: worldsKey(guildId) });
      patchCachedWorld(queryClient, guildId, worldId, (world) => ({ ...world, ...change }));
    },
    onSuccess: (world) => storeWorld(queryClient, guildId, world),
    onError: () => queryClient.invalidateQueries({ queryKey: worldsKey(guildId) }),
  });
}
