import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { type WorldsResponse, worldsKey } from './worlds';

/** Deletes an unlocked world and drops it from the list. */
export function useDeleteWorld(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (worldId: string) =>
      unwrap(
        api.DELETE('/api/guilds/{guildId}/worlds/{worldId}', { params: { path: { guildId, worldId } } }),
      ),
    onSuccess: (_, worldId) =>
      queryClient.setQueryData<WorldsResponse>(
        worldsKey(guildId),
        (data) => data && { ...data, worlds: data.worlds.filter((w) => w.id !== worldId) },
      ),
  });
}
