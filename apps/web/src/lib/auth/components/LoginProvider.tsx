import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo } from 'react';
import { setUnauthorizedHandler } from '../../../api/middleware';
import { currentUserKey, currentUserQuery } from '../api/currentUser';
import { LoginContext, type LoginState } from '../loginContext';

/** Loads the current user once; renders nothing until that load has finished. */
export function LoginProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(currentUserQuery);

  useEffect(() => {
    // A 401 from any call means the session ended: re-check who is logged in.
    setUnauthorizedHandler(() => void queryClient.invalidateQueries({ queryKey: currentUserKey }));
    return () => setUnauthorizedHandler(undefined);
  }, [queryClient]);

  const value = useMemo<LoginState>(() => ({ isLoggedIn: Boolean(data), user: data ?? null }), [data]);

  if (isPending) return null;
  return <LoginContext value={value}>{children}</LoginContext>;
}
