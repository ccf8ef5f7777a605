import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { profileKey } from './profile';

export function useUnlinkAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/users/unlink')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKey }),
  });
}
