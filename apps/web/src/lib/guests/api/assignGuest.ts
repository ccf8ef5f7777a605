import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { operations } from '../../../api/schema';
import { guestInfoKey } from './guestInfo';

export type AssignGuestBody = operations['assignGuest']['requestBody']['content']['application/json'];

export function useAssignGuest(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AssignGuestBody) =>
      unwrap(api.POST('/api/users/guests/{guildId}/assign', { params: { path: { guildId } }, body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guestInfoKey(guildId) }),
  });
}
