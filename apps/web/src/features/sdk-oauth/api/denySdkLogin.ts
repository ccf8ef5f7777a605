import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** Refuses the editor's request at once: its next poll answers Unauthorized instead of waiting it out. */
export function denySdkLogin(token: string) {
  return unwrap(api.POST('/api/oauth-deny', { body: { token } }));
}

export function useDenySdkLogin() {
  return useMutation({ mutationFn: denySdkLogin });
}
