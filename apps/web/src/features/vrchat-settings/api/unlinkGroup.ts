import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { linkedGroupKey } from './linkedGroup';

/** Unlinks the group; the tab then shows the unlinked screen. */
export function useUnlinkGroup(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/groups/{guildId}', { params: { path: { guildId } } })),
    onSuccess: () => queryClient.setQueryData(linkedGroupKey(guildId), null),
  });
}
