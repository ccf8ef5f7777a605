import { api, unwrap } from '../../../api/client';

/** The Discord authorize address to send the browser to. */
export async function fetchLoginRedirect(): Promise<string> {
  const { redirectUri } = await unwrap(api.GET('/api/login'));
  return redirectUri;
}

export function completeLogin(code: string, state: string) {
  return unwrap(api.POST('/api/login/callback', { body: { code, state } }));
}

export function loginWithToken(token: string) {
  return unwrap(api.GET('/api/discord_auth', { params: { query: { token } } }));
}

export function logout() {
  return unwrap(api.GET('/api/logout'));
}
