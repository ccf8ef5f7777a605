import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { currentUserKey } from '../api/currentUser';
import { logout } from '../api/login';
import { RedirectingNotice } from './RedirectingNotice';
import { useRunOnce } from './useRunOnce';

/** Ends the session, refreshes the login context and returns home. */
export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useRunOnce(() => {
    logout()
      .catch((error: unknown) => console.debug('Logout call failed', error))
      .finally(async () => {
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserKey[0] });
        await queryClient.invalidateQueries({ queryKey: currentUserKey });
        navigate('/', { replace: true });
      });
  });
  return <RedirectingNotice message="Logging out…" />;
}
