import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { profileKey } from './profile';

/** Re-reads the linked VRChat account (name, age verification). */
export function useRefreshLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.GET('/api/users/refresh')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKey }),
  });
}
