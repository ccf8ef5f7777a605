import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { currentUserKey } from './api/currentUser';
import { rememberLogout } from './loginReturn';

/** The spec's `GET /logout`; the XSRF header goes with it (the server treats this GET as state-changing). */
export function logout() {
  return unwrap(api.GET('/api/logout'));
}

/**
 * Ends the session, forgets every loaded answer, refreshes the login context and goes home. A failed call still
 * lands logged out in this tab: the session may be gone already, and staying on a signed-in page would mislead.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logout().catch((error: unknown) => console.debug('Logout call failed', error)),
    onSettled: async () => {
      rememberLogout();
      // Home first, and only then the login state: refreshed on a signed-in page (still shown while the home
      // page loads) it would flash that page's 'You must be logged in'.
      await navigate('/', { replace: true });
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserKey[0] });
      await queryClient.invalidateQueries({ queryKey: currentUserKey });
    },
  });
}
