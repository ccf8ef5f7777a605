import { useNavigate, useSearchParams } from 'react-router';
import { isSafeReturnPath, loginFailurePath, takeLogout } from '../../../lib/auth/loginReturn';
import { fetchLoginRedirect } from '../api/login';
import { RedirectingNotice } from './RedirectingNotice';
import { useRunOnce } from './useRunOnce';

/** Asks the server for the Discord authorize address (keeping a safe return path) and sends the browser there. */
export function DiscordLoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  useRunOnce(() => {
    const returnTo = params.get('returnTo');
    fetchLoginRedirect(isSafeReturnPath(returnTo) ? returnTo : undefined, takeLogout())
      .then((redirectUri) => window.location.assign(redirectUri))
      .catch((error: unknown) => {
        console.debug('Login redirect failed', error);
        navigate(loginFailurePath(error), { replace: true });
      });
  });
  return <RedirectingNotice message="Redirecting to Discord…" />;
}
