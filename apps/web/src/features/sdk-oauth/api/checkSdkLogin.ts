import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** Read-only: can the signed-in user still allow this request? Refuses an unknown, expired or used one. */
export function checkSdkLogin(token: string) {
  return unwrap(api.GET('/api/oauth-request', { params: { query: { token } } }));
}

/** Asked once per token before the page offers Allow; a refusal is final, so it is not retried. */
export function useSdkLoginCheck(token: string) {
  return useQuery({
    queryKey: ['sdk-oauth', 'request', token],
    queryFn: () => checkSdkLogin(token).then(() => true),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
