import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { profileKey } from './profile';

/** Checks the VRChat bio for the code; with it the link is verified (or moved here from another account). */
export function useVerifyVrchatUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vrcId: string) => unwrap(api.POST('/api/users/verify', { params: { query: { vrcId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKey }),
  });
}
