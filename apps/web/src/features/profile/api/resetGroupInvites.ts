import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { profileKey } from './profile';

/** Forgets the group invites sent to this user so the group sync may invite again. */
export function useResetGroupInvites() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.GET('/api/users/group/reset_invites')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKey }),
  });
}
