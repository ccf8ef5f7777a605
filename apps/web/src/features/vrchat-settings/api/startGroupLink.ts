import { useMutation } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type GroupLinkInfo = Schemas['GroupLinkInfo'];

/** Step 1 of linking: the group and the code to put into its description. */
export function useStartGroupLink(guildId: string) {
  return useMutation({
    mutationFn: (groupId: string) =>
      unwrap(
        api.POST('/api/groups/{guildId}/link/start', { params: { path: { guildId } }, body: { groupId } }),
      ),
  });
}
