import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { linkedGroupKey } from './linkedGroup';

/** The bot joins the group (or asks to); Member means linked, so the group is fetched again. */
export function useJoinGroupLink(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (groupId: string) =>
      unwrap(
        api.POST('/api/groups/{guildId}/link/join', { params: { path: { guildId } }, body: { groupId } }),
      ),
    onSuccess: ({ status }) => {
      if (status === 'Member') return queryClient.invalidateQueries({ queryKey: linkedGroupKey(guildId) });
    },
  });
}
