import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { isAdmin, useLogin } from '../loginContext';

/** Only users with rank Admin see its children; everyone else is sent to the home page. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const login = useLogin();
  if (!isAdmin(login)) return <Navigate to="/" replace />;
  return children;
}
