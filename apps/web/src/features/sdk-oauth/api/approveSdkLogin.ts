import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** Lets the editor that showed this token act as the signed-in user (compat: "Editor login"). */
export function approveSdkLogin(token: string) {
  return unwrap(api.POST('/api/oauth-approve', { body: { token } }));
}

/** Approving changes nothing the web app has cached, so there is nothing to invalidate. */
export function useApproveSdkLogin() {
  return useMutation({ mutationFn: approveSdkLogin });
}
