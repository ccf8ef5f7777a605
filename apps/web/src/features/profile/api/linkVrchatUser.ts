import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { profileKey } from './profile';

/** Links the VRChat account: SuccessVerified when the code is already in its bio, else Success. */
export function useLinkVrchatUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vrcId: string) => unwrap(api.POST('/api/users/link', { params: { query: { vrcId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKey }),
  });
}
