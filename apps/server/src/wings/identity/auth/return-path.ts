/** The longest return path the login keeps (a page address with its query, e.g. /sdk-oauth?token=…). */
export const RETURN_PATH_MAX = 1024;

const PROBE_ORIGIN = 'http://return-path.invalid';

/**
 * A same-origin place to land after login: a relative path starting with a single '/'. Never '//host'
 * or '/\host' (browsers read both as another site), a scheme, a backslash or a control character.
 */
export function isSafeReturnPath(path: string): boolean {
  if (path.length === 0 || path.length > RETURN_PATH_MAX) return false;
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return false;
  try {
    return new URL(path, PROBE_ORIGIN).origin === PROBE_ORIGIN;
  } catch {
    return false;
  }
}

/** The state cookie carries the return path after the state: `state` or `state.base64url(path)`. */
export function packState(state: string, returnTo: string | undefined): string {
  return returnTo ? `${state}.${Buffer.from(returnTo, 'utf8').toString('base64url')}` : state;
}

/** The state and the (re-checked) return path from the cookie; '/profile' when none was given. */
export function unpackState(cookie: string): { state: string; returnTo: string } {
  const dot = cookie.indexOf('.');
  if (dot < 0) return { state: cookie, returnTo: '/profile' };
  const returnTo = Buffer.from(cookie.slice(dot + 1), 'base64url').toString('utf8');
  return { state: cookie.slice(0, dot), returnTo: isSafeReturnPath(returnTo) ? returnTo : '/profile' };
}
