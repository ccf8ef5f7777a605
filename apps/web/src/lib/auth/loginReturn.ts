import { ApiError } from '../../api/errors';

/**
 * A same-origin place to land after login: a relative path starting with a single '/'. Never '//host' or
 * '/\host' (browsers read both as another site), a scheme, a backslash or a control character.
 */
export function isSafeReturnPath(path: string | null | undefined): path is string {
  if (!path || path.length > 1024) return false;
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return false;
  // The login pages themselves are no place to come back to.
  return !path.startsWith('/discord/login');
}

/** The login page's address, carrying where to come back to when that is a safe path. */
export function loginPath(returnTo?: string): string {
  return isSafeReturnPath(returnTo)
    ? `/discord/login?returnTo=${encodeURIComponent(returnTo)}`
    : '/discord/login';
}

/** Why a login failed, as the home page's `?loginError=` names it. */
export type LoginErrorCode = 'cancelled' | 'expired' | 'rejected' | 'failed' | 'too-many';

const loginErrorMessages: Record<LoginErrorCode, string> = {
  cancelled: 'Login was cancelled in Discord.',
  expired: 'The login took too long or was started in another browser. Try again.',
  rejected: 'The login link expired or was already used. Try again.',
  failed: 'Login failed: the server could not be reached or did not answer. Try again in a moment.',
  'too-many': 'Too many sign-in attempts from this address. Try again in a minute.',
};

/** The sentence for a `?loginError=` code; an unknown code still says that the login failed. */
export function loginErrorMessage(code: string, retryAfter?: string | null): string {
  const seconds = Number(retryAfter);
  if (code === 'too-many' && Number.isInteger(seconds) && seconds > 0)
    return `Too many sign-in attempts from this address. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  return code in loginErrorMessages ? loginErrorMessages[code as LoginErrorCode] : 'Login failed. Try again.';
}

/** Where a failed login lands: home, naming the reason (and, after a 429, how long to wait). */
export const loginErrorPath = (code: LoginErrorCode, retryAfterSeconds?: number) =>
  `/?loginError=${code}${retryAfterSeconds ? `&retryAfter=${retryAfterSeconds}` : ''}`;

/** Where a login that failed with this error lands: a 429 says there were too many attempts and when to retry. */
export function loginFailurePath(error: unknown, otherwise: LoginErrorCode = 'failed'): string {
  if (error instanceof ApiError && error.status === 429)
    return loginErrorPath('too-many', error.retryAfterSeconds);
  return loginErrorPath(otherwise);
}

const LOGGED_OUT_KEY = 'vrclink.loggedOut';

/** Remembered for this tab at logout: the next login lets the visitor pick another Discord account. */
export function rememberLogout(): void {
  try {
    sessionStorage.setItem(LOGGED_OUT_KEY, '1');
  } catch {
    // Storage disabled: the next login signs the same Discord account in silently, as before.
  }
}

/** Whether the visitor logged out in this tab since the last login (read once, then forgotten). */
export function takeLogout(): boolean {
  try {
    const loggedOut = sessionStorage.getItem(LOGGED_OUT_KEY) === '1';
    sessionStorage.removeItem(LOGGED_OUT_KEY);
    return loggedOut;
  } catch {
    return false;
  }
}
