import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** Whether the VRChat account is free to link (Conflict: linked to someone else) and the code to prove it. */
export function useCheckVrchatUser() {
  return useMutation({
    mutationFn: (vrcId: string) => unwrap(api.GET('/api/users/check', { params: { query: { vrcId } } })),
  });
}
