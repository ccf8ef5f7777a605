import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { currentUserKey } from '../api/currentUser';
import { loginWithToken } from '../api/login';
import { RedirectingNotice } from './RedirectingNotice';
import { useRunOnce } from './useRunOnce';

/** Login with a one-time token from the bot (/discord_auth?token=…): profile on success, home on failure. */
export function TokenLoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useRunOnce(() => {
    const token = params.get('token');
    if (!token) {
      navigate('/', { replace: true });
      return;
    }
    loginWithToken(token)
      .then(async () => {
        await queryClient.invalidateQueries({ queryKey: currentUserKey });
        navigate('/profile', { replace: true });
      })
      .catch((error: unknown) => {
        console.debug('Token login failed', error);
        navigate('/', { replace: true });
      });
  });
  return <RedirectingNotice message="Signing you in…" />;
}
