import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { permissionsKey } from './permissions';

export function useDeletePermissions(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(
        api.DELETE('/api/guilds/permissions/{guildId}/{userId}', { params: { path: { guildId, userId } } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: permissionsKey(guildId) }),
  });
}
