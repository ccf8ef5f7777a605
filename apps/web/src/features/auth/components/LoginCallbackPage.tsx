import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../api/errors';
import { currentUserKey } from '../../../lib/auth/api/currentUser';
import {
  isSafeReturnPath,
  type LoginErrorCode,
  loginErrorPath,
  loginFailurePath,
} from '../../../lib/auth/loginReturn';
import { completeLogin } from '../api/login';
import { RedirectingNotice } from './RedirectingNotice';
import { useRunOnce } from './useRunOnce';

/** The server's reason for refusing the callback, when it gave one. */
function refusalReason(error: unknown): LoginErrorCode {
  if (!(error instanceof ApiError) || error.kind !== 'bad-request') return 'failed';
  const reason = (error.body as { reason?: unknown } | undefined)?.reason;
  return reason === 'expired' || reason === 'rejected' ? reason : 'failed';
}

/**
 * Discord sends the browser back here with code and state (or error=access_denied when cancelled). On success
 * go where the login was started from (the profile by default), else home with the reason in the address.
 */
export function LoginCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useRunOnce(() => {
    const code = params.get('code');
    const state = params.get('state') ?? '';
    if (!code) {
      const cancelled = params.get('error') === 'access_denied';
      navigate(loginErrorPath(cancelled ? 'cancelled' : 'failed'), { replace: true });
      return;
    }
    completeLogin(code, state)
      .then(({ returnTo, ...user }) => {
        queryClient.setQueryData(currentUserKey, user);
        navigate(isSafeReturnPath(returnTo) ? returnTo : '/profile', { replace: true });
      })
      .catch((error: unknown) => {
        console.debug('Login failed', error);
        navigate(loginFailurePath(error, refusalReason(error)), { replace: true });
      });
  });
  return <RedirectingNotice message="Signing you in…" />;
}
