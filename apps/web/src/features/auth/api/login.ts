import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/**
 * The Discord authorize address to send the browser to; `switchAccount` after a logout, so Discord asks
 * which account instead of signing the last one in again.
 */
export async function fetchLoginRedirect(returnTo?: string, switchAccount = false): Promise<string> {
  const query = {
    ...(returnTo ? { returnTo } : {}),
    ...(switchAccount ? { switchAccount: 'true' as const } : {}),
  };
  const { redirectUri } = await unwrap(api.GET('/api/login', { params: { query } }));
  return redirectUri;
}

export function completeLogin(code: string, state: string) {
  return unwrap(api.POST('/api/login/callback', { body: { code, state } }));
}

export const INVALID_LOGIN_LINK = 'This login link is invalid, expired or already used.';

/** Whose one-time login token it is; the server does not use the token up. */
export const loginTokenPreviewQuery = (token: string) =>
  queryOptions({
    queryKey: ['login-token-preview', token],
    queryFn: () => unwrap(api.GET('/api/discord_auth/preview', { params: { query: { token } } })),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function loginWithToken(token: string) {
  return unwrap(api.GET('/api/discord_auth', { params: { query: { token } } }));
}
