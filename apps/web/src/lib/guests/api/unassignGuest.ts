import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { guestInfoKey } from './guestInfo';

export function useUnassignGuest(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (guestEntryId: string) =>
      unwrap(
        api.DELETE('/api/users/guests/{guildId}/unassign/{guestEntryId}', {
          params: { path: { guildId, guestEntryId } },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guestInfoKey(guildId) }),
  });
}
