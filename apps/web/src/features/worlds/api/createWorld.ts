import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { worldsKey } from './worlds';

/** 'Create new': a locked world with default settings; the server answers the whole list. */
export function useCreateWorld(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.PUT('/api/guilds/{guildId}/worlds', { params: { path: { guildId } }, body: {} })),
    onSuccess: (data) => queryClient.setQueryData(worldsKey(guildId), data),
  });
}
