import { useNavigate } from 'react-router';
import { fetchLoginRedirect } from '../api/login';
import { RedirectingNotice } from './RedirectingNotice';
import { useRunOnce } from './useRunOnce';

/** Asks the server for the Discord authorize address and sends the browser there. */
export function DiscordLoginPage() {
  const navigate = useNavigate();
  useRunOnce(() => {
    fetchLoginRedirect()
      .then((redirectUri) => window.location.assign(redirectUri))
      .catch((error: unknown) => {
        console.debug('Login redirect failed', error);
        navigate('/', { replace: true });
      });
  });
  return <RedirectingNotice message="Redirecting to Discord…" />;
}
