import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { GuildPermission } from '../../../lib/guild-access/api/guilds';
import { permissionsKey } from './permissions';

export function useSavePermissions(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, permissions }: { userId: string; permissions: GuildPermission[] }) =>
      unwrap(
        api.POST('/api/guilds/permissions/{guildId}/{userId}', {
          params: { path: { guildId, userId } },
          body: { permissions },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: permissionsKey(guildId) }),
  });
}
