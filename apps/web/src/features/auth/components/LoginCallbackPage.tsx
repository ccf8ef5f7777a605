import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { currentUserKey } from '../api/currentUser';
import { completeLogin } from '../api/login';
import { RedirectingNotice } from './RedirectingNotice';
import { useRunOnce } from './useRunOnce';

/** Discord sends the browser back here with code and state; on success go to the profile, else home. */
export function LoginCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useRunOnce(() => {
    const code = params.get('code');
    const state = params.get('state') ?? '';
    if (!code) {
      navigate('/', { replace: true });
      return;
    }
    completeLogin(code, state)
      .then((user) => {
        queryClient.setQueryData(currentUserKey, user);
        navigate('/profile', { replace: true });
      })
      .catch((error: unknown) => {
        console.debug('Login failed', error);
        navigate('/', { replace: true });
      });
  });
  return <RedirectingNotice message="Signing you in…" />;
}
