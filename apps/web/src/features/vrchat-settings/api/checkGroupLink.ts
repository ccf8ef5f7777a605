import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** Whether the group's description carries the link code. */
export function useCheckGroupLink(guildId: string) {
  return useMutation({
    mutationFn: (groupId: string) =>
      unwrap(
        api.POST('/api/groups/{guildId}/link/check', { params: { path: { guildId } }, body: { groupId } }),
      ),
  });
}
